import { z } from 'zod';
import type { Role } from './enums';

/**
 * How a route authenticates:
 * - bearer: Authorization: Bearer <session JWT or API token>
 * - s2t-key: x-svc-s2t-key: <batch API token> (legacy session endpoints, models query)
 * - magic-link: ?token=<magic link token>; a 401 here never signs the user out
 * - signed: a URL the service signed itself (media, direct downloads); no header
 * - none: public
 */
export type AuthKind = 'bearer' | 's2t-key' | 'magic-link' | 'signed' | 'none';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
/**
 * json: application/json; form: x-www-form-urlencoded; multipart: form-data; media: raw audio/* or
 * video/* bytes; octet-stream: raw application/offset+octet-stream bytes (a tus chunk).
 */
export type BodyKind = 'none' | 'json' | 'form' | 'multipart' | 'media' | 'octet-stream';
/** json is validated by `response.schema`; binary is bytes (exports, media); redirect is a 3xx. */
export type ResponseKind = 'json' | 'binary' | 'redirect';

export interface RouteDef<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  A extends AuthKind = AuthKind,
> {
  method: HttpMethod;
  /** With {name} path parameters, as the spec writes them. */
  path: string;
  /** Kept as its literal, so the service can type the caller a handler sees from it. */
  auth: A;
  params: P;
  query: Q;
  body: { kind: BodyKind; schema: B };
  response: { kind: ResponseKind; schema: R };
  /** Status of a successful json answer; 200 when absent. */
  status?: number;
  /** The caller needs at least one of these roles (403 otherwise); anyone the auth kind admits when absent. */
  roles?: readonly Role[];
  /** Safe to repeat after a lost response; the client retries only these. */
  idempotent: boolean;
  /** Listing routes: offset/limit paging over an envelope (or the tokens' nested envelope). */
  paged?: 'envelope' | 'nested-envelope';
  summary: string;
}

const NoParams = z.object({});
const NoQuery = z.object({});
const NoBody = z.undefined();

interface RouteInput<P, Q, B, R, A> {
  method: HttpMethod;
  path: string;
  auth: A;
  params?: P;
  query?: Q;
  body?: { kind: BodyKind; schema: B };
  response: { kind: ResponseKind; schema: R };
  status?: number;
  roles?: readonly Role[];
  idempotent?: boolean;
  paged?: 'envelope' | 'nested-envelope';
  summary: string;
}

export function route<
  P extends z.ZodType = typeof NoParams,
  Q extends z.ZodType = typeof NoQuery,
  B extends z.ZodType = typeof NoBody,
  R extends z.ZodType = z.ZodType,
  A extends AuthKind = AuthKind,
>(def: RouteInput<P, Q, B, R, A>): RouteDef<P, Q, B, R, A> {
  return {
    ...def,
    params: (def.params ?? NoParams) as P,
    query: (def.query ?? NoQuery) as Q,
    body: def.body ?? { kind: 'none', schema: NoBody as unknown as B },
    idempotent: def.idempotent ?? ['GET', 'HEAD', 'PUT', 'DELETE'].includes(def.method),
  };
}

export type ParamsOf<T extends RouteDef> = z.input<T['params']>;
export type QueryOf<T extends RouteDef> = z.input<T['query']>;
export type BodyOf<T extends RouteDef> = z.input<T['body']['schema']>;
export type ResponseOf<T extends RouteDef> = z.output<T['response']['schema']>;

/** Fills {name} placeholders, encoding each value; a missing value is a programming error. */
export function buildPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** `/a/{id}` -> `/a/:id`, the router syntax Fastify and most routers use. */
export function toRouterPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
