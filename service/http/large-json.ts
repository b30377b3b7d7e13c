/**
 * JSON request bodies on the event loop cost time by their shape: a 15 MB document (hundreds of
 * thousands of small objects) takes the one loop for a second or more to parse, check and write
 * back. Bodies past LARGE_JSON_BYTES are therefore kept as text by the parser; handle() checks
 * them on an offload thread, and the document writes hand the text to one whole (parse, check,
 * serialize: service/offload/tasks.ts), so the loop only ever holds the string.
 */
import type { FastifyInstance } from 'fastify';
import { plainError } from './errors';

export const LARGE_JSON_BYTES = 256 * 1024;

/** A JSON body too large to parse on the event loop, as it arrived. */
export class LargeJson {
  constructor(readonly text: string) {}
}

/** The scope's JSON parser (inherited by every area): small bodies parsed at once, large ones kept as LargeJson. */
export function parseJsonBodies(scope: FastifyInstance): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.length === 0) return done(plainError(400, "Body cannot be empty when content-type is set to 'application/json'"), undefined);
    if (text.length > LARGE_JSON_BYTES) return done(null, new LargeJson(text));
    try {
      done(null, JSON.parse(text) as unknown);
    } catch (e) {
      done(plainError(400, `the body is not valid JSON: ${(e as Error).message}`), undefined);
    }
  });
}
