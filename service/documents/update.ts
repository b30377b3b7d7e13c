/**
 * The document update (PUT), shared by the owner's route and the magic-link route. The body is
 * checked and prepared by prepareUpdate, a pure function: on the event loop for a small body, on
 * an offload thread for a large one (kept as text: service/http/large-json.ts), so the loop
 * stores a large document as the string it arrived as.
 */
import type { DocumentUpdateBody } from '../../common/api';
import type { DocumentBody } from '../../common/transcript/model';
import type { ServiceContext } from '../context';
import { HttpError, plainError } from '../http/errors';
import { LargeJson } from '../http/large-json';
import { offloaded } from '../offload/http';
import { documentEndMs } from '../sessions/duration';
import { documentWords, MAX_WORDS_PER_SECOND, wordsForMedia } from './limits';
import { updateDocument, type BodyText, type DocumentColumns, type ScopedDocument } from './store';

export type UpdateBody = DocumentUpdateBody;

/** An update ready to store: the body serialized, with its end. */
export interface PreparedUpdate {
  ok: true;
  filename?: string;
  timecode_offset?: string;
  body?: BodyText;
}

/** A body refused, in words (an offload thread cannot throw an HttpError across). */
export interface Refusal {
  ok: false;
  status: number;
  message: string;
  code?: string;
}

/**
 * Checks the body against the document (its kind; no more words than its media can hold:
 * ./limits.ts) and serializes it. plain_document_changed ('true'/'false' text, as the spec
 * sends it) is kept as the boolean metadata.plain_document_changed of the stored body, so every
 * reader can tell a hand-edited text from the engine's; without a body it says nothing.
 */
export function prepareUpdate(body: UpdateBody, kind: 'transcript' | 'caption', maxWords: number | null): PreparedUpdate | Refusal {
  const out: PreparedUpdate = { ok: true };
  if (body.filename !== undefined) out.filename = body.filename;
  if (body.timecode_offset !== undefined) out.timecode_offset = body.timecode_offset;
  if (body.document !== undefined) {
    const doc = body.document as DocumentBody;
    if (doc.content.kind !== kind || doc.document_type !== kind) {
      return { ok: false, status: 422, message: `document: this is a ${kind} document; its content must be of kind ${kind}` };
    }
    const words = documentWords(doc);
    if (maxWords !== null && words > maxWords) {
      return {
        ok: false,
        status: 413,
        code: 'document_too_large',
        message: `The document has ${words} words, more than its media can hold (at most ${maxWords}: ${MAX_WORDS_PER_SECOND} a second of the recording); nothing was saved.`,
      };
    }
    const metadata = { ...doc.metadata, ...(body.plain_document_changed ? { plain_document_changed: body.plain_document_changed === 'true' } : {}) };
    const stored: DocumentBody = { ...doc, metadata };
    out.body = { json: JSON.stringify(stored), endMs: documentEndMs(stored) };
  }
  return out;
}

function refused(r: Refusal): HttpError {
  return r.code ? new HttpError(r.status, { error: { code: r.code, message: r.message } }) : plainError(r.status, r.message);
}

/** Checks, prepares and writes an update given as checked data, or as a large body's text (checked off the event loop). */
export async function applyUpdate(ctx: ServiceContext, doc: ScopedDocument, body: UpdateBody | LargeJson): Promise<ScopedDocument> {
  const kind = doc.type === 'caption' ? 'caption' : 'transcript';
  const maxWords = wordsForMedia(ctx.db, doc.session_pk);
  const prepared = body instanceof LargeJson ? await offloaded(ctx, 'documentUpdate', { text: body.text, kind, maxWords }) : prepareUpdate(body, kind, maxWords);
  if (!prepared.ok) throw refused(prepared);
  const cols: DocumentColumns = {};
  if (prepared.filename !== undefined) cols.filename = prepared.filename;
  if (prepared.timecode_offset !== undefined) cols.timecode_offset = prepared.timecode_offset;
  if (prepared.body) cols.body = prepared.body;
  // Compare-and-set against the row the preconditions were checked on: a write in between is 412, never lost.
  return ctx.db.transaction(() => updateDocument(ctx.db, doc, cols)).immediate();
}
