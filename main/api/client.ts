/**
 * The service client, driven entirely by the route table in common/api: one generic `call` picks
 * the auth for the route's kind, encodes params/query/body, retries what is safe to retry,
 * enforces a timeout, honours cancellation, and validates every answer with the route's schema.
 */
import { buildPath, routes, type BodyOf, type ParamsOf, type QueryOf, type ResponseOf, type RouteDef, type RouteId, type Routes } from '../../common/api';
import { checkJsonAnswer, firstIssue } from './check';
import { ApiError, cancelledError, MalformedResponseError } from './errors';

export type RouteResponse<K extends RouteId> = ResponseOf<Routes[K]>;

export interface CallInput<K extends RouteId> {
  params?: ParamsOf<Routes[K]>;
  query?: QueryOf<Routes[K]>;
  /** A stream is read once: give it as a function that opens a new one, and each attempt (a retry, a new batch key) sends it whole. */
  body?: BodyOf<Routes[K]> | (() => ReadableStream<Uint8Array>);
  headers?: Record<string, string>;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Per-request timeout; the client default otherwise. */
  timeoutMs?: number;
  /** Retries on 429/5xx/no answer for idempotent routes; the client default otherwise. */
  retries?: number;
  /**
   * Checks a JSON answer in place of checkJsonAnswer, elsewhere (the pull hands document pages to
   * a worker thread, which keeps their bytes): the same errors, and `data` only as much of the
   * answer as the caller needs. A result without `text` carries no raw body.
   */
  checkAnswer?: (status: number, bytes: Uint8Array) => Promise<{ data: unknown; text?: string }>;
}

export interface CallResult<K extends RouteId> {
  data: RouteResponse<K>;
  status: number;
  headers: Headers;
  /** A JSON answer as it came (what `data` was checked from), for cutting members out of (json-members.ts). */
  body?: RawBody;
}

/** An answer's bytes and the text they decode to. */
export interface RawBody {
  bytes: Uint8Array;
  text: string;
}

/** Where credentials come from; main/api/credentials.ts implements it over the SecretStore. */
export interface AuthSource {
  accessToken(): Promise<string | null>;
  /** The batch API key for x-svc-s2t-key routes, created through tokens.create when there is none. */
  batchKey(signal?: AbortSignal): Promise<string | null>;
  /** The stored batch key was refused: forget it so the next call makes a new one. */
  invalidateBatchKey(): Promise<void>;
  /** A Bearer route answered 401: sign the user out. Never called for magic-link routes. */
  unauthorized(routeId: string): void;
}

/** What a request taught us about the service's health, for main/sync/connectivity. */
/** `slow`: no answer yet after slowAfterMs (a hung service keeps the connection open and says nothing). */
export type Outcome = 'ok' | 'unreachable' | 'degraded' | 'slow';

export interface ClientOptions {
  /** The service's address; a function where it can move (the watch daemon's embedded service, after a restart on another port). */
  baseUrl: string | (() => string);
  auth?: AuthSource;
  timeoutMs?: number;
  retries?: number;
  /** First backoff step; doubled each retry, with full jitter. */
  backoffMs?: number;
  /** A Retry-After or X-RateLimit-Reset further away than this is not waited for: the error is thrown. */
  maxWaitMs?: number;
  fetch?: typeof fetch;
  observe?: (outcome: Outcome, routeId: RouteId) => void;
  /** A request without an upload body that has had no answer for this long is reported `slow`, long before its timeout. */
  slowAfterMs?: number;
}

type ItemOfResponse<R> = R extends { result: { result: (infer I)[] } } ? I : R extends { result: (infer I)[] } ? I : never;
export type ItemOf<K extends RouteId> = ItemOfResponse<RouteResponse<K>>;

export interface Page<K extends RouteId> {
  items: ItemOf<K>[];
  offset: number;
  total: number;
  /** The page's JSON as it came. */
  body?: RawBody;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** How long the service asked us to wait, from Retry-After (seconds or a date) or X-RateLimit-Reset (Unix seconds). */
export function serverWaitMs(headers: Headers, now = Date.now()): number | null {
  const ra = headers.get('retry-after');
  if (ra) {
    const secs = Number(ra);
    if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
    const at = Date.parse(ra);
    if (Number.isFinite(at)) return Math.max(0, at - now);
  }
  const reset = headers.get('x-ratelimit-reset');
  const remaining = headers.get('x-ratelimit-remaining');
  if (reset && (remaining === null || Number(remaining) <= 0)) {
    const at = Number(reset);
    if (Number.isFinite(at)) return Math.max(0, at * 1000 - now);
  }
  return null;
}

function encodeValue(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** Wraps what a CallOptions.checkAnswer threw, to tell it from a body that could not be read. */
class CheckFailure extends Error {
  constructor(readonly reason: unknown) {
    super('the answer could not be checked');
  }
}

export class ApiClient {
  private readonly base: () => string;
  private readonly opts: Required<Omit<ClientOptions, 'auth' | 'observe' | 'baseUrl'>> & Pick<ClientOptions, 'auth' | 'observe'>;

  constructor(options: ClientOptions) {
    const base = options.baseUrl;
    this.base = typeof base === 'string' ? () => base : base;
    this.opts = {
      timeoutMs: 30_000,
      slowAfterMs: 8_000,
      retries: 3,
      backoffMs: 250,
      maxWaitMs: 60_000,
      fetch: globalThis.fetch.bind(globalThis),
      // An option passed as undefined means "the default", not "none".
      ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
    };
  }

  get baseUrl(): string {
    return this.base().replace(/\/+$/, '');
  }

  setAuth(auth: AuthSource): void {
    this.opts.auth = auth;
  }

  /** Calls one route and returns its validated body. */
  async call<K extends RouteId>(id: K, input: CallInput<K> = {}, options: CallOptions = {}): Promise<RouteResponse<K>> {
    return (await this.callWithMeta(id, input, options)).data;
  }

  /** As call, with the status and headers (ETag, Location). */
  async callWithMeta<K extends RouteId>(id: K, input: CallInput<K> = {}, options: CallOptions = {}): Promise<CallResult<K>> {
    const def = routes[id] as RouteDef;
    const retries = def.idempotent ? (options.retries ?? this.opts.retries) : 0;
    let keyRetried = false;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(id, def, input, options);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        if (err.status === 401 && def.auth === 's2t-key' && !keyRetried && this.opts.auth) {
          // The stored batch key may have been revoked: make a new one, once.
          keyRetried = true;
          await this.opts.auth.invalidateBatchKey();
          attempt--;
          continue;
        }
        const retryable = err.transport || err.status === 429 || err.status >= 500;
        if (!retryable || attempt >= retries || options.signal?.aborted) throw err;
        const backoff = Math.random() * this.opts.backoffMs * 2 ** attempt;
        const asked = typeof err.details.retryAfterMs === 'number' ? err.details.retryAfterMs : 0;
        if (asked > this.opts.maxWaitMs) throw err;
        await sleep(Math.max(backoff, asked), options.signal);
      }
    }
  }

  /**
   * Every page of a listing route (envelope or the tokens' nested envelope), pageSize at a time.
   * With readAhead the next page is asked for while the caller handles this one: for a caller that
   * reads to the end (a full pass), not one that may stop after the first page. Stopping early
   * cancels the page read ahead.
   */
  async *pages<K extends RouteId>(id: K, input: CallInput<K> = {}, options: CallOptions & { pageSize?: number; startOffset?: number; readAhead?: boolean } = {}): AsyncGenerator<Page<K>> {
    const def = routes[id] as RouteDef;
    if (!def.paged) throw new Error(`${id} is not a listing route`);
    const limit = options.pageSize ?? 100;
    const stop = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
    const fetchPage = (offset: number) => this.callWithMeta(id, { ...input, query: { ...(input.query as object), offset, limit } as QueryOf<Routes[K]> }, { ...options, signal });
    let offset = options.startOffset ?? 0;
    let pending = fetchPage(offset);
    try {
      for (;;) {
        const answer = await pending;
        const data = answer.data as unknown as { result: unknown };
        const env = (def.paged === 'nested-envelope' ? data.result : data) as { count: number; total_results: number; result: ItemOf<K>[] };
        if (env.result.length === 0) return;
        const next = offset + env.result.length;
        // A page may hold fewer than asked and more still follow (a documents page ends at its byte budget).
        const more = next < env.total_results;
        if (more && options.readAhead) {
          pending = fetchPage(next);
          pending.catch(() => {}); // awaited on the next turn, or dropped when the caller stops
        }
        yield { items: env.result, offset, total: env.total_results, body: answer.body };
        if (!more) return;
        offset = next;
        if (!options.readAhead) pending = fetchPage(offset);
      }
    } finally {
      stop.abort();
    }
  }

  /** Every item of a listing route. */
  async *items<K extends RouteId>(id: K, input: CallInput<K> = {}, options: CallOptions & { pageSize?: number } = {}): AsyncGenerator<ItemOf<K>> {
    for await (const page of this.pages(id, input, options)) yield* page.items;
  }

  private async once<K extends RouteId>(id: K, def: RouteDef, input: CallInput<K>, options: CallOptions): Promise<CallResult<K>> {
    const headers: Record<string, string> = { accept: def.response.kind === 'binary' ? '*/*' : 'application/json' };
    const auth = this.opts.auth;
    if (def.auth === 'bearer') {
      const token = await auth?.accessToken();
      if (!token) throw new ApiError(id, { status: 401, code: 'NOT_SIGNED_IN', message: 'not signed in', details: {} });
      headers.authorization = `Bearer ${token}`;
    } else if (def.auth === 's2t-key') {
      const key = await auth?.batchKey(options.signal);
      if (!key) throw new ApiError(id, { status: 401, code: 'NO_BATCH_KEY', message: 'no batch API key and none could be created (sign in first)', details: {} });
      headers['x-svc-s2t-key'] = key;
    }
    let body: RequestInit['body'];
    if (def.body.kind !== 'none' && input.body !== undefined) {
      if (def.body.kind === 'json' || def.body.kind === 'form') {
        const checked = def.body.schema.safeParse(input.body);
        if (!checked.success) {
          const { field, problem } = firstIssue(checked.error);
          throw new ApiError(id, { status: 0, code: 'BAD_REQUEST', message: `request to ${id}: field "${field}" ${problem}`, details: { field } });
        }
      }
      if (def.body.kind === 'json') {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(input.body);
      } else if (def.body.kind === 'form') {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        const form = new URLSearchParams();
        for (const [k, v] of Object.entries(input.body as object)) if (v !== undefined) form.set(k, encodeValue(v));
        body = form;
      } else {
        const given: unknown = input.body;
        body = (typeof given === 'function' ? (given as () => ReadableStream<Uint8Array>)() : given) as RequestInit['body'];
      }
    } else if (id === 'models.list') {
      headers['content-type'] = 'application/json'; // the spec requires it on this GET (415 otherwise)
    }
    Object.assign(headers, input.headers);
    const url = new URL(this.baseUrl + buildPath(def.path, (input.params ?? {}) as Record<string, string | number>));
    for (const [k, v] of Object.entries((input.query ?? {}) as object)) if (v !== undefined && v !== null) url.searchParams.set(k, encodeValue(v));

    const timeout = AbortSignal.timeout(options.timeoutMs ?? this.opts.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let res: Response;
    // An upload's answer waits for its body to be sent, so only a request without one is called slow.
    const small = body === undefined || typeof body === 'string' || body instanceof URLSearchParams;
    const slow = small && this.opts.observe ? setTimeout(() => this.opts.observe?.('slow', id), this.opts.slowAfterMs) : undefined;
    try {
      // A stream body is sent as it is read (fetch asks for duplex 'half' to say so).
      const streamed = body instanceof ReadableStream ? { duplex: 'half' } : {};
      res = await this.opts.fetch(url, { method: def.method, headers, body, signal, redirect: def.response.kind === 'redirect' ? 'manual' : 'follow', ...streamed } as RequestInit);
    } catch (err) {
      throw this.noAnswer(id, err, options.signal, timeout);
    } finally {
      clearTimeout(slow);
    }
    const ok = res.ok || (def.response.kind === 'redirect' && res.status >= 300 && res.status < 400);
    if (!ok) {
      const text = await res.text().catch(() => '');
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON: normalizeError keeps the text */
      }
      const err = ApiError.fromResponse(id, res.status, parsed);
      const wait = serverWaitMs(res.headers);
      if (wait !== null) err.details.retryAfterMs = wait;
      this.opts.observe?.(res.status === 429 || res.status >= 500 ? 'degraded' : 'ok', id);
      if (res.status === 401 && def.auth === 'bearer') auth?.unauthorized(id);
      throw err;
    }
    let data: unknown;
    let raw: RawBody | undefined;
    try {
      if (def.response.kind === 'binary') data = new Uint8Array(await res.arrayBuffer());
      else if (def.response.kind === 'redirect') data = { location: res.headers.get('location') };
      else {
        const bytes = new Uint8Array(await res.arrayBuffer());
        const checked = options.checkAnswer ? await options.checkAnswer(res.status, bytes).catch((err: unknown) => Promise.reject(new CheckFailure(err))) : checkJsonAnswer(id, res.status, bytes);
        data = checked.data;
        raw = checked.text === undefined ? undefined : { bytes, text: checked.text };
      }
    } catch (err) {
      if (err instanceof MalformedResponseError || (err instanceof CheckFailure && err.reason instanceof MalformedResponseError)) this.opts.observe?.('degraded', id);
      // The answer came; whatever went wrong with a check elsewhere is that check's own error, not a lost answer.
      if (err instanceof CheckFailure) throw err.reason;
      if (err instanceof ApiError) throw err;
      throw this.noAnswer(id, err, options.signal, timeout);
    }
    this.opts.observe?.('ok', id);
    return { data: data as RouteResponse<K>, status: res.status, headers: res.headers, body: raw };
  }

  private noAnswer(id: RouteId, err: unknown, user: AbortSignal | undefined, timeout: AbortSignal): ApiError {
    if (user?.aborted) return cancelledError(id);
    if (timeout.aborted) {
      this.opts.observe?.('unreachable', id);
      return new ApiError(id, { status: 0, code: 'TIMEOUT', message: `${id} timed out`, details: {} });
    }
    this.opts.observe?.('unreachable', id);
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return new ApiError(id, { status: 0, code: 'NETWORK', message: `the service is unreachable (${cause ?? (err as Error).message})`, details: {} });
  }
}
