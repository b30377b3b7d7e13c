/**
 * Typed answers for the service tests, from the route table the app and the service share.
 * A test names the route it calls (`'documents.get'`) and writes the path itself, so the spec's
 * literal URLs stay under test; the route id types the body, checked against the route's schema
 * when the answer is that route's success. Any other answer is read with errorOf().
 */
import { CodedError, ErrorBody, routes, type HttpMethod, type ResponseOf, type RouteId, type Routes } from '../../common/api';

export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

/** A route id, or a bare method for a request that is meant not to be one of the table's (a malformed path, a refusal). */
export type Target = RouteId | HttpMethod;

export type BodyOfRoute<K extends RouteId> = ResponseOf<Routes[K]>;

/** The method of a target, after checking that a route id's pattern matches the path (so the id cannot lie about the call). */
export function methodOf(target: Target, path: string): HttpMethod {
  if ((HTTP_METHODS as readonly string[]).includes(target)) return target as HttpMethod;
  const r = routes[target as RouteId];
  const pattern = new RegExp(`^${r.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`);
  const bare = new URL(path, 'http://x').pathname;
  if (!pattern.test(bare)) throw new Error(`${path} is not the path of route ${target} (${r.path})`);
  return r.method;
}

/**
 * The route's answer, typed from its schema: valid only when the status is the route's success
 * status and the body passes the schema; otherwise it throws with what came instead. The body
 * is handed back as sent (not the schema's stripped parse), so toEqual still sees every field.
 */
export function routeBody<K extends RouteId>(id: K, status: number, body: unknown): BodyOfRoute<K> {
  const r = routes[id];
  const want = 'status' in r && typeof r.status === 'number' ? r.status : 200;
  if (status !== want) throw new Error(`${id} answered ${status}, not ${want}: ${JSON.stringify(body)?.slice(0, 500)}`);
  const checked = r.response.schema.safeParse(body);
  if (!checked.success) throw new Error(`${id} answered a body its schema refuses: ${checked.error.message}\n${JSON.stringify(body)?.slice(0, 500)}`);
  return body as BodyOfRoute<K>;
}

/** An answer as sent: `body` is the JSON parsed (else the text), read with errorOf() or a zod parse. */
export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** An answer of a named route: `body` is the route's success answer (see routeBody). */
export interface RouteAnswer<K extends RouteId> extends Answer {
  readonly body: BodyOfRoute<K>;
}

/** The answer object for a target: a bare method keeps the body as parsed; a route id reads it through routeBody. */
export function answer<K extends RouteId>(target: K, res: Omit<Answer, 'body'>, parsed: unknown): RouteAnswer<K>;
export function answer(target: Target, res: Omit<Answer, 'body'>, parsed: unknown): Answer;
export function answer(target: Target, res: Omit<Answer, 'body'>, parsed: unknown): Answer {
  const plain = { status: res.status, headers: res.headers, text: res.text };
  if ((HTTP_METHODS as readonly string[]).includes(target)) return { ...plain, body: parsed };
  const id = target as RouteId;
  return Object.defineProperty(plain, 'body', { enumerable: true, get: () => routeBody(id, res.status, parsed) }) as Answer;
}

/** The error fields the service's three error shapes carry, flattened for reading. */
export interface ErrorAnswer {
  error: string | { code: string; message: string; details?: Record<string, unknown> };
  error_description?: string;
  status?: number;
  [field: string]: unknown;
}

/** An answer that must be an error (status 400 or above, one of common/api's error shapes); returned as sent. */
export function errorOf(res: { status: number; text: string }): ErrorAnswer {
  if (res.status < 400) throw new Error(`expected an error, got ${res.status}: ${res.text.slice(0, 500)}`);
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    throw new Error(`error answer ${res.status} is not JSON: ${res.text.slice(0, 500)}`);
  }
  if (!ErrorBody.safeParse(body).success) throw new Error(`error answer ${res.status} is none of the error shapes: ${res.text.slice(0, 500)}`);
  return body as ErrorAnswer;
}

/** A value a test needs to go on (a listed row it looked up); absent is a failure with a name. */
export function must<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`missing: ${what}`);
  return value;
}

/** The newer error shape's `error` object (`{ error: { code, message, details } }`), as sent. */
export function codedError(res: { status: number; text: string }): { code: string; message: string; details?: Record<string, unknown> } {
  const body = errorOf(res);
  if (!CodedError.safeParse(body).success) throw new Error(`error answer ${res.status} is not the coded shape: ${res.text.slice(0, 500)}`);
  return body.error as { code: string; message: string; details?: Record<string, unknown> };
}
