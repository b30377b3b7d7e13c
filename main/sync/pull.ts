/**
 * Pull: sessions page by page, newest change first (sort=last_modified, direction=desc), and the
 * documents (with content) of each session that needs them. Each page, with those documents, is
 * applied in one transaction.
 *
 * Strategy (the spec's lists can only be sorted and paged, not asked "changed since"):
 * - Incremental pull. The high-water mark is the newest session last_modified the last pull saw.
 *   Pages are read until one reaches a session older than the mark, so an unchanged account costs
 *   one request. A listed session whose last_modified differs from the one its documents were
 *   pulled at gets its documents re-fetched; the others cost nothing. This relies on the service
 *   moving a session's last_modified whenever one of its documents is written, made or deleted
 *   (the local service does; README: Interface choices).
 * - Full pass. Deletions do not show in a sorted list, and a service may not move a session's
 *   last_modified for every document change. So a full pass reads every page, removes sessions
 *   the service no longer lists, and lists the documents (without content) of every session whose
 *   version looks unchanged, re-fetching with content those whose documents differ (added,
 *   removed, or another last_modified). It runs on the first pull, when the service's
 *   total_results disagrees with the number of cached sessions, and at least every
 *   SWEEP_INTERVAL_MS; it also catches anything an offset shifting under concurrent changes
 *   made an incremental pull skip.
 */
import type { Session } from '../../common/api';
import type { ApiClient } from '../api/client';
import { cancelledError } from '../api/errors';
import { WriterFailure, type BackgroundWriter } from '../cache/background';
import { prepareDocumentsPage, preparePullPage, type Cache, type PreparedDocument, type PreparedPage, type PulledChanges } from '../cache/cache';

export const SWEEP_INTERVAL_MS = 10 * 60_000;
export const PAGE_SIZE = 100;
const DOC_CONCURRENCY = 8;

export interface PullContext {
  client: ApiClient;
  cache: Cache;
  accountId: number;
  signal?: AbortSignal;
  progress?: (done: number, total: number) => void;
  changed?: (change: { sessions: string[]; documents: string[] }) => void;
}

/**
 * At most `n` requests at once. A page's documents checked in the background writer hold a slot
 * only while downloading, not while they wait for the writer (which may be applying the page
 * before): so the downloads go on while a page is written, as they did when this thread checked
 * them. `close` makes every later `take` answer false (a page that failed starts nothing more).
 */
class Slots {
  /** Each waiter is handed a slot (true) by give, or refused (false) by close. */
  private waiting: ((got: boolean) => void)[] = [];
  private closed = false;
  constructor(private free: number) {}
  async take(): Promise<boolean> {
    if (this.closed) return false;
    if (this.free > 0) {
      this.free--;
      return true;
    }
    return new Promise<boolean>((r) => this.waiting.push(r));
  }
  give(): void {
    const next = this.waiting.shift();
    if (next) next(true);
    else this.free++;
  }
  close(): void {
    this.closed = true;
    for (const next of this.waiting.splice(0)) next(false);
  }
  async run<R>(fn: () => Promise<R>): Promise<R> {
    if (!(await this.take())) throw new Error('the page has failed');
    try {
      return await fn();
    } finally {
      this.give();
    }
  }
}

/** Where a pass's document pages are checked, and the slots of the page being fetched. */
type Background = { writer: BackgroundWriter; batch: number; slots: Slots };

/** fn over items, `limit` at a time; after a failure no further item starts (onFailure is told), and it rejects once those under way have ended. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>, onFailure?: () => void): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failure: { err: unknown } | null = null;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length && !failure) {
        const i = next++;
        try {
          out[i] = await fn(items[i]);
        } catch (err) {
          if (!failure) onFailure?.();
          failure ??= { err };
        }
      }
    }),
  );
  if (failure) throw (failure as { err: unknown }).err;
  return out;
}

/** A session's documents with their content: turned into rows here, or checked and held by the background writer (its refs). */
type SessionDocs = { prepared: PreparedDocument[] } | { refs: number[] };

/**
 * A session's documents with their content. With the background writer, each page's bytes go to
 * it to be parsed and checked there, and only its refs come back: the main thread, which answers
 * the UI, never parses a body. Should the writer die, the documents are fetched again and
 * checked here.
 */
async function documentsOf(ctx: PullContext, sessionId: string, bg: Background | null): Promise<SessionDocs> {
  const input = { params: { sessionId }, query: { include_content: true } } as const;
  if (bg) {
    const refs: number[] = [];
    let seen = 0;
    let more = false;
    let holding = false;
    const take = async () => {
      if (!(await bg.slots.take())) throw new Error('the page has failed');
      holding = true;
    };
    const give = () => {
      if (holding) bg.slots.give();
      holding = false;
    };
    const checkAnswer = async (status: number, bytes: Uint8Array) => {
      give(); // downloaded: the slot goes to the next download while the writer checks this one
      const parsed = await bg.writer.parseDocuments(bg.batch, sessionId, status, bytes);
      refs.push(parsed.ref);
      seen += parsed.count;
      more = parsed.count > 0 && seen < parsed.total; // as pages() decides
      // What paging needs: how many came, of how many.
      return { data: { count: parsed.count, total_results: parsed.total, result: new Array<null>(parsed.count).fill(null) } };
    };
    try {
      await take();
      // A slot for the request of the next page, when there is one.
      for await (const _page of ctx.client.pages('documents.list', input, { signal: ctx.signal, pageSize: PAGE_SIZE, checkAnswer })) if (more) await take();
      return { refs };
    } catch (err) {
      if (!(err instanceof WriterFailure)) throw err;
    } finally {
      give();
    }
  }
  const onThisThread = async (): Promise<SessionDocs> => {
    const prepared: PreparedDocument[] = [];
    for await (const page of ctx.client.pages('documents.list', input, { signal: ctx.signal, pageSize: PAGE_SIZE })) {
      prepared.push(...prepareDocumentsPage(page.items, sessionId, page.body ?? undefined));
    }
    return { prepared };
  };
  return bg ? bg.slots.run(onThisThread) : onThisThread();
}

/** A full pass's check of a session whose version looks unchanged: do its documents on the service differ from ours? */
async function documentsDiffer(ctx: PullContext, sessionId: string): Promise<boolean> {
  const ours = ctx.cache.pulledDocumentVersions(sessionId);
  let theirs = 0;
  for await (const page of ctx.client.pages('documents.list', { params: { sessionId }, query: { include_content: false } }, { signal: ctx.signal, pageSize: PAGE_SIZE })) {
    theirs += page.items.length;
    if (page.items.some((d) => ours.get(d.id) !== d.last_modified)) return true;
  }
  return theirs !== ours.size;
}

/** The documents to apply for a session, or null when its cached documents are current. */
async function documentsToApply(ctx: PullContext, s: Session, full: boolean, bg: Background | null): Promise<SessionDocs | null> {
  if (ctx.cache.sessionNeedsDocs(s)) return documentsOf(ctx, s.session_id, bg);
  if (!full) return null;
  const differ = bg ? await bg.slots.run(() => documentsDiffer(ctx, s.session_id)) : await documentsDiffer(ctx, s.session_id);
  return differ ? documentsOf(ctx, s.session_id, bg) : null;
}

export interface PullResult {
  sessions: number;
  documents: number;
  swept: boolean;
}

export async function pull(ctx: PullContext, opts: { full?: boolean } = {}): Promise<PullResult> {
  const { cache, accountId } = ctx;
  const hwm = cache.getCursor(accountId, 'sessions.hwm');
  const lastSweep = Number(cache.getCursor(accountId, 'sessions.sweepAt') ?? 0);
  let full = opts.full || !hwm || Date.now() - lastSweep > SWEEP_INTERVAL_MS;
  const result: PullResult = { sessions: 0, documents: 0, swept: false };
  if (!hwm) cache.warmBackgroundWriter(); // a first sync: every page brings content

  for (let pass = 0; pass < 2; pass++) {
    // Document pages are checked in the background writer when there is one (started above, or by
    // an earlier pull); what a pass leaves there is dropped when it ends, by its own batch number.
    const writer = cache.backgroundWriter();
    const checkedIn = writer && { writer, batch: writer.newBatch() };
    const seen = new Set<string>();
    let newest = hwm;
    let total = 0;
    let done = 0;
    // A pipeline: the next page and its documents download (and are checked and turned into
    // rows) while the cache's background writer applies this one, each page in one transaction.
    // A full pass reads every page: the next is asked for while this one is handled.
    const pages = ctx.client.pages('sessions.list', { query: { sort: 'last_modified', direction: 'desc' } }, { signal: ctx.signal, pageSize: PAGE_SIZE, readAhead: full });
    type Fetched = { items: Session[]; total: number; page: PreparedPage } | null;
    const fetchNext = async (): Promise<Fetched> => {
      const r = await pages.next();
      if (r.done) return null;
      const items = r.value.items as Session[];
      // Each session's documents are turned into rows as they arrive (in the writer, or here), between downloads.
      // With the writer every session of the page is under way at once, the slots bounding the downloads.
      const bg = checkedIn && { ...checkedIn, slots: new Slots(DOC_CONCURRENCY) };
      const docLists = await mapLimit(items, bg ? items.length : DOC_CONCURRENCY, (s) => documentsToApply(ctx, s, full, bg), () => bg?.slots.close());
      const page = preparePullPage(items, new Map());
      page.parsed = new Map();
      items.forEach((s, i) => {
        const docs = docLists[i];
        if (docs && 'refs' in docs) page.parsed!.set(s.session_id, docs.refs);
        else if (docs) page.docs.set(s.session_id, docs.prepared);
      });
      return { items, total: r.value.total, page };
    };
    const apply = async (page: PreparedPage): Promise<PulledChanges> => {
      try {
        return await cache.applyPullPageInBackground(accountId, page);
      } catch (err) {
        if (!(err instanceof WriterFailure) || !page.parsed?.size) throw err;
        // The writer died holding this page's documents: they are fetched again and applied here.
        for (const sessionId of page.parsed.keys()) page.docs.set(sessionId, ((await documentsOf(ctx, sessionId, null)) as { prepared: PreparedDocument[] }).prepared);
        page.parsed.clear();
        return cache.applyPreparedPage(accountId, page);
      }
    };
    const applied = (items: Session[], changed: PulledChanges) => {
      for (const s of items) {
        seen.add(s.session_id);
        if (s.last_modified && (!newest || s.last_modified > newest)) newest = s.last_modified;
      }
      result.sessions += changed.sessions.length;
      result.documents += changed.documents.length;
      if (changed.sessions.length || changed.documents.length) ctx.changed?.(changed);
      done += items.length;
      ctx.progress?.(done, full ? total : done);
    };
    let next: Promise<Fetched> | null = fetchNext();
    let applying: Promise<void> | null = null;
    try {
      while (next) {
        const fetched: Fetched = await next;
        if (!fetched) break;
        const items: Session[] = fetched.items;
        total = fetched.total;
        const last: boolean = !full && !!hwm && items.some((s) => (s.last_modified ?? '') < hwm);
        next = last ? null : fetchNext();
        next?.catch(() => {}); // awaited on the next turn; this only keeps an early failure from going unhandled
        // One page in the writer at a time: the previous one is done before this one goes.
        await applying;
        // Cancelled while this page was on its way: it is not applied (its downloads may all have ended before the cancel).
        if (ctx.signal?.aborted) throw cancelledError('sessions.list');
        applying = apply(fetched.page).then((changed) => applied(items, changed));
        applying.catch(() => {}); // awaited before the next page goes and after the loop
      }
      await applying;
    } finally {
      await applying?.catch(() => {});
      await next?.catch(() => {});
      await pages.return(undefined);
      if (checkedIn) checkedIn.writer.forget(checkedIn.batch); // whatever a failed or cancelled pass parsed and did not apply
    }
    if (full) {
      const gone = cache.sweepSessions(accountId, seen);
      if (gone.length) ctx.changed?.({ sessions: gone, documents: [] });
      cache.setCursor(accountId, 'sessions.sweepAt', String(Date.now()));
      result.swept = true;
    }
    if (newest) cache.setCursor(accountId, 'sessions.hwm', newest);
    // A count that disagrees means something was deleted (or skipped): sweep once.
    if (full || cache.sessionCount(accountId) === total) break;
    full = true;
  }
  cache.setCursor(accountId, 'lastPullAt', new Date().toISOString());
  return result;
}
