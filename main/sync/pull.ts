/**
 * Pull: sessions page by page, newest change first (sort=last_modified, direction=desc), and for
 * each session whose last_modified differs from the one we pulled its documents at, the
 * session's documents with content. Each page, with those documents, is applied in one transaction.
 *
 * Incremental strategy: the high-water mark is the newest session last_modified seen by the last
 * completed pull. A pull stops after the first page that reaches a session older than the mark,
 * so an unchanged account costs one request. Deletions do not show in a sorted list, so a sweep
 * (a pass over every page, comparing ids) runs when the service's total_results disagrees with
 * the number of cached sessions, on the first pull, and at least every SWEEP_INTERVAL_MS; the
 * sweep also catches anything an offset shifting under concurrent changes made us skip.
 * This relies on the service bumping a session's last_modified whenever one of its documents
 * changes (the local service does; README: Interface choices).
 */
import type { Document, Session } from '../../common/api';
import type { ApiClient } from '../api/client';
import type { Cache } from '../cache/cache';

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

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

async function documentsOf(ctx: PullContext, sessionId: string): Promise<Document[]> {
  const docs: Document[] = [];
  for await (const page of ctx.client.pages('documents.list', { params: { sessionId }, query: { include_content: true } }, { signal: ctx.signal, pageSize: PAGE_SIZE })) {
    docs.push(...page.items);
  }
  return docs;
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

  for (let pass = 0; pass < 2; pass++) {
    const seen = new Set<string>();
    let newest = hwm;
    let total = 0;
    let done = 0;
    // One page of lookahead: the next page and its documents download while this one is written.
    const pages = ctx.client.pages('sessions.list', { query: { sort: 'last_modified', direction: 'desc' } }, { signal: ctx.signal, pageSize: PAGE_SIZE });
    type Fetched = { items: Session[]; total: number; docs: Map<string, Document[]> } | null;
    const fetchNext = async (): Promise<Fetched> => {
      const r = await pages.next();
      if (r.done) return null;
      const items = r.value.items as Session[];
      const needDocs = items.filter((s) => cache.sessionNeedsDocs(s));
      const docLists = await mapLimit(needDocs, DOC_CONCURRENCY, (s) => documentsOf(ctx, s.session_id));
      return { items, total: r.value.total, docs: new Map(needDocs.map((s, i) => [s.session_id, docLists[i]])) };
    };
    let next: Promise<Fetched> | null = fetchNext();
    try {
      while (next) {
        const page: Fetched = await next;
        if (!page) break;
        const items: Session[] = page.items;
        total = page.total;
        const last: boolean = !full && !!hwm && items.some((s) => (s.last_modified ?? '') < hwm);
        next = last ? null : fetchNext();
        next?.catch(() => {}); // awaited on the next turn; this only keeps an early failure from going unhandled
        const changed = cache.applyPullPage(accountId, items, page.docs);
        for (const s of items) {
          seen.add(s.session_id);
          if (s.last_modified && (!newest || s.last_modified > newest)) newest = s.last_modified;
        }
        result.sessions += changed.sessions.length;
        result.documents += changed.documents.length;
        if (changed.sessions.length || changed.documents.length) ctx.changed?.(changed);
        done += items.length;
        ctx.progress?.(done, full ? total : done);
      }
    } finally {
      await next?.catch(() => {});
      await pages.return(undefined);
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
