import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { mediaType } from '../../node/content-type';
import { issueText as zodIssueText } from '../../node/zod-issues';
import { routes, toRouterPath, type RouteId, type Routes } from '../../common/api';
import { authenticate, type Principal, type PrincipalFor } from '../auth/principal';
import type { ServiceContext } from '../context';
import { offloaded } from '../offload/http';
import { forbidden, notFound, plainError, validationError } from './errors';
import { LargeJson } from './large-json';

type R<K extends RouteId> = Routes[K];

export interface HandlerInput<K extends RouteId> {
  params: z.output<R<K>['params']>;
  query: z.output<R<K>['query']>;
  /** Parsed for json and form bodies; undefined for multipart and media (read `req` yourself). */
  body: z.output<R<K>['body']['schema']>;
  /**
   * Only on routes registered with `{ largeBodyAsText: true }`: a JSON body too large for the
   * event loop, unchecked (`body` is then undefined); the handler checks it off the loop.
   */
  largeBody?: LargeJson;
  /** Typed from the route's auth kind: a UserPrincipal on bearer and s2t-key routes. */
  principal: PrincipalFor<R<K>['auth']>;
  req: FastifyRequest;
  reply: FastifyReply;
}

/** Returned by a handler that wrote the reply itself (binary bodies, redirects, streams). */
export const SENT = Symbol('sent');

/**
 * A JSON answer already serialized (the session list's stored JSON): sent as it is. Its check
 * against the response schema (parse and zod, as much as the list cost without it) runs under
 * test only, where vitest sets NODE_ENV=test and the service it starts inherits it; the SQL that
 * makes the text fixes its shape, and tests pin it to the object presenter.
 */
export class JsonText {
  constructor(readonly text: string) {}
}
const CHECK_JSON_TEXT = process.env.NODE_ENV === 'test';

export type Handler<K extends RouteId> = (input: HandlerInput<K>) => Promise<z.input<R<K>['response']['schema']> | JsonText | typeof SENT>;

const issueText = (error: z.ZodError) => zodIssueText(error, 'body');

/**
 * Registers one route of the table: parses params, query and body with the route's zod schemas
 * (422 with `{error}` when they do not fit; 404 for a malformed path id), authenticates for the
 * route's auth kind, checks the route's roles, runs the handler and validates what it answers
 * against the response schema, so the service can never send what the contract does not allow
 * (a JsonText answer: under test only, see there); a good JSON answer gets the route's status.
 */
export function handle<K extends RouteId>(app: FastifyInstance, ctx: ServiceContext, id: K, handler: Handler<K>, opts: { largeBodyAsText?: boolean } = {}): void {
  const def = routes[id];
  app.route({
    method: def.method,
    url: toRouterPath(def.path),
    handler: async (req, reply) => {
      const params = def.params.safeParse(req.params ?? {});
      if (!params.success) throw notFound('resource');
      const limiter = app.rateLimiter;
      let principal: Principal;
      try {
        principal = await authenticate(ctx, def.auth, req);
      } catch (err) {
        // Failed credentials count against the caller's address, so guessing is throttled too.
        limiter.hit(`ip:${req.ip}`, reply);
        throw err;
      }
      limiter.hit(principal.rateKey, reply);
      const roles = def.roles;
      if (roles && (principal.kind !== 'user' || !principal.roles.some((r) => roles.includes(r)))) throw forbidden();
      const query = def.query.safeParse(req.query ?? {});
      if (!query.success) throw validationError(issueText(query.error));
      let body: unknown = undefined;
      let largeBody: LargeJson | undefined;
      if (def.body.kind === 'json' || def.body.kind === 'form') {
        const type = mediaType(req.headers['content-type']);
        const want = def.body.kind === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
        if (type !== want) throw plainError(415, `Content-Type must be ${want}`);
        if (req.body instanceof LargeJson && opts.largeBodyAsText) largeBody = req.body;
        else if (req.body instanceof LargeJson) body = await checkedOffLoop(ctx, id, req.body);
        else {
          const parsed = def.body.schema.safeParse(req.body);
          if (!parsed.success) throw validationError(issueText(parsed.error));
          body = parsed.data;
        }
      }
      const result = await handler({ params: params.data, query: query.data, body, largeBody, principal, req, reply } as HandlerInput<K>);
      if (result === SENT) return reply;
      const text = result instanceof JsonText;
      if (text && !CHECK_JSON_TEXT) return sendJson(reply, def.status, result.text);
      const checked = def.response.schema.safeParse(text ? JSON.parse(result.text) : result);
      if (!checked.success) {
        ctx.log.error('response does not match the contract', { route: id, issues: issueText(checked.error) });
        throw plainError(500, 'internal error');
      }
      return sendJson(reply, def.status, text ? result.text : JSON.stringify(checked.data));
    },
  });
}

/** A large JSON body checked against the route's schema on an offload thread. */
async function checkedOffLoop(ctx: ServiceContext, id: RouteId, large: LargeJson): Promise<unknown> {
  const checked = await offloaded(ctx, 'checkBody', { route: id, text: large.text });
  if (!checked.ok) throw plainError(checked.status, checked.message);
  return checked.data;
}

function sendJson(reply: FastifyReply, status: number | undefined, json: string): string {
  reply.code(status ?? 200).header('content-type', 'application/json; charset=utf-8');
  return json;
}
