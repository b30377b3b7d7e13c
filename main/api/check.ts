/**
 * The check every JSON answer goes through: parsed, then validated with the route's schema. A
 * broken answer is a MalformedResponseError naming the route and the field.
 */
import { firstIssue } from '../../node/zod-issues';
import { routes, type RouteDef, type RouteId } from '../../common/api';
import { MalformedResponseError } from './errors';

const utf8 = new TextDecoder();

export { firstIssue };

/** An answer's bytes as the route's validated data, with the text they decode to. */
export function checkJsonAnswer(id: RouteId, status: number, bytes: Uint8Array): { data: unknown; text: string } {
  const text = utf8.decode(bytes);
  return { data: checkJsonText(id, status, text), text };
}

/** An answer's text as the route's validated data. */
export function checkJsonText(id: RouteId, status: number, text: string): unknown {
  const def = routes[id] as RouteDef;
  if (def.response.kind !== 'json') throw new Error(`${id} does not answer JSON`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new MalformedResponseError(id, status, '', 'is not JSON');
  }
  const checked = def.response.schema.safeParse(parsed);
  if (!checked.success) {
    const { field, problem } = firstIssue(checked.error);
    throw new MalformedResponseError(id, status, field, problem);
  }
  return checked.data;
}
