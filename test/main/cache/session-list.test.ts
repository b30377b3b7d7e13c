/**
 * The session list's query in SQLite over 10,000 cached sessions: every sort in both directions
 * and the filters give what a plain JavaScript sort and filter of the same rows give; the sorts
 * are served by an index; the remembered view survives reopening the cache; a deleted session
 * leaves the list at once and comes back with the reason when the service refuses.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../common/api';
import { Cache } from '../../../main/cache';
import { sessionDeleted, sessionDeleteRefused } from '../../../main/cache/sessions';
import { cleanup, tempDir } from '../../helpers/service';
import { sessionRes, user } from '../helpers/fixtures';

const N = 10_000;
const STATUSES = ['queued', 'processing', 'completed', 'failed', 'dead_letter', 'uploaded'] as const;
const LANGS = ['en', 'es', 'de', 'fr'];
const MODES = ['decode', 'align', 'upload'] as const;

const dir = tempDir('s2t-list-');
const file = join(dir, 'cache.db');
let cache: Cache;
let accountId: number;
const rows: Session[] = [];

/** A deterministic spread of names, durations, statuses, languages, modes and dates, with ties. */
function makeSession(i: number): Session {
  const stamp = new Date(Date.UTC(2026, 0, 1) + ((i * 7919) % N) * 60_000).toISOString();
  return {
    ...sessionRes(`s${String(i).padStart(5, '0')}`, stamp),
    filename: `${['Board', 'interview', 'podcast', 'Lecture', 'call'][i % 5]} ${(i * 31) % 997}.wav`,
    duration: (i * 13) % 500,
    status: STATUSES[i % STATUSES.length],
    language: LANGS[(i >> 1) % LANGS.length],
    session_mode: MODES[i % 3],
    date_upload: i % 10 === 0 ? null : stamp,
  };
}

beforeAll(() => {
  cache = Cache.open(file);
  accountId = cache.setCurrentAccount('http://service.test', user);
  const ins = cache.db.prepare('INSERT INTO sessions (session_id, account_id, filename, language, status, last_modified, data) VALUES (?, ?, ?, ?, ?, ?, ?)');
  cache.db.transaction(() => {
    for (let i = 0; i < N; i++) {
      const s = makeSession(i);
      rows.push(s);
      ins.run(s.session_id, accountId, s.filename, s.language, s.status, s.last_modified, JSON.stringify(s));
    }
  })();
});
afterAll(() => {
  cache?.close();
  cleanup(dir);
});

type Sort = 'date' | 'name' | 'duration' | 'status';
const keyOf: Record<Sort, (s: Session) => string | number> = {
  date: (s) => s.date_upload ?? s.last_modified!,
  name: (s) => s.filename.toLowerCase(),
  duration: (s) => s.duration,
  status: (s) => s.status!,
};
const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

/** What the list must show: sorted by the key, then (for status) the date, then the id, all in one direction. */
function expected(sort: Sort, direction: 'asc' | 'desc', keep: (s: Session) => boolean = () => true): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  return rows
    .filter(keep)
    .sort((a, b) => sign * (cmp(keyOf[sort](a), keyOf[sort](b)) || (sort === 'status' ? cmp(keyOf.date(a), keyOf.date(b)) : 0) || cmp(a.session_id, b.session_id)))
    .map((s) => s.session_id);
}

function listed(page: Parameters<Cache['listSessions']>[1]) {
  return cache.listSessions(accountId, page);
}

describe('session list in SQLite, 10,000 sessions', () => {
  for (const sort of ['date', 'name', 'duration', 'status'] as const) {
    for (const direction of ['asc', 'desc'] as const) {
      it(`sorts by ${sort} ${direction}`, () => {
        const want = expected(sort, direction);
        for (const offset of [0, 4_950, N - 50]) {
          const got = listed({ offset, limit: 50, sort, direction });
          expect(got.total).toBe(N);
          expect(got.items.map((s) => s.session_id)).toEqual(want.slice(offset, offset + 50));
        }
      });
    }
  }

  it('serves each sort from an index (no sort of the whole table per page)', () => {
    const uploaded = "coalesce(json_extract(s.data, '$.date_upload'), s.last_modified)";
    const orders = { date: uploaded, name: 's.filename COLLATE NOCASE', duration: "coalesce(json_extract(s.data, '$.duration'), 0)", status: `s.status DESC, ${uploaded}` };
    for (const [sort, order] of Object.entries(orders)) {
      const plan = cache.db.prepare(`EXPLAIN QUERY PLAN SELECT s.data FROM sessions s WHERE s.account_id = ? ORDER BY ${order} DESC, s.session_id DESC LIMIT 50`).all(accountId) as { detail: string }[];
      expect(plan.map((p) => p.detail).join(' '), sort).not.toContain('TEMP B-TREE');
    }
  });

  it('keeps no index on sessions that none of the list\'s queries reads (each is written by every pull)', () => {
    // A second connection, so every statement is prepared (and recorded) afresh.
    const reader = Cache.open(file);
    const seen: string[] = [];
    const prepare = reader.db.prepare.bind(reader.db);
    reader.db.prepare = ((sql: string) => (/FROM sessions/.test(sql) && seen.push(sql), prepare(sql))) as typeof reader.db.prepare;
    try {
      for (const sort of ['date', 'name', 'duration', 'status'] as const) {
        for (const direction of ['asc', 'desc'] as const) reader.listSessions(accountId, { offset: 10, limit: 50, sort, direction });
      }
      for (const filter of [{ q: 'board' }, { status: ['failed'] }, { language: 'es' }, { mode: 'decode' }]) reader.listSessions(accountId, { offset: 0, limit: 50, ...filter });
      reader.sessionFacets(accountId);
      const used = new Set(seen.flatMap((sql) => {
        const plan = prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(sql.match(/\?/g) ?? []).map(() => null)) as { detail: string }[];
        return plan.flatMap((p) => [...p.detail.matchAll(/USING (?:COVERING )?INDEX (\w+)/g)].map((m) => m[1]));
      }));
      const indexes = prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'sessions' AND sql IS NOT NULL").pluck().all() as string[];
      expect(indexes.length).toBeGreaterThan(0);
      expect(indexes.filter((name) => !used.has(name))).toEqual([]);
    } finally {
      reader.close();
    }
  });

  it('filters by status, language and mode together, with a search, and counts what matches', () => {
    const keep = (s: Session) => (s.status === 'failed' || s.status === 'queued') && s.language === 'es' && s.session_mode === 'decode' && s.filename.toLowerCase().includes('interview');
    const want = expected('name', 'asc', keep);
    expect(want.length).toBeGreaterThan(10);
    const got = listed({ offset: 0, limit: 500, sort: 'name', direction: 'asc', status: ['failed', 'queued'], language: 'es', mode: 'decode', q: 'INTERVIEW' });
    expect(got.total).toBe(want.length);
    expect(got.items.map((s) => s.session_id)).toEqual(want);
    expect(listed({ offset: 0, limit: 1, mode: 'upload' }).total).toBe(rows.filter((s) => s.session_mode === 'upload').length);
    expect(listed({ offset: 0, limit: 1, status: ['dead_letter'] }).total).toBe(rows.filter((s) => s.status === 'dead_letter').length);
    expect(listed({ offset: 0, limit: 1, q: '100%' }).total).toBe(0); // LIKE wildcards are taken literally
  });

  it('offers the languages and modes present as filters', () => {
    expect(cache.sessionFacets(accountId)).toEqual({ languages: [...LANGS].sort(), modes: [...MODES].sort() });
  });

  it('remembers the view across a reopen of the cache', () => {
    const view = { q: 'board', sort: 'duration', direction: 'asc', status: ['failed'], language: 'de', mode: 'decode' };
    cache.setUiState(accountId, 'sessions.view', JSON.stringify(view));
    cache.close();
    cache = Cache.open(file);
    expect(JSON.parse(cache.uiState(accountId, 'sessions.view')!)).toEqual(view);
  });

  it('a deleted session leaves the list at once, queued for the service; sent, it stays gone; refused, it comes back with the reason', () => {
    const [a, b] = expected('date', 'desc').slice(0, 2);
    expect(cache.deleteSessions(accountId, [a, b, 'not-ours'])).toEqual([a, b]);
    const top = listed({ offset: 0, limit: 5 });
    expect(top.total).toBe(N - 2);
    expect(top.items.map((s) => s.session_id)).not.toContain(a);
    expect(cache.getSession(accountId, a)).toBeNull();
    const queued = cache.outboxEntries().filter((e) => e.op.op === 'deleteSession');
    expect(queued.map((e) => e.session_id).sort()).toEqual([a, b].sort());
    expect(cache.pendingCount()).toBe(2);

    const ea = queued.find((e) => e.session_id === a)!;
    sessionDeleted(cache.db, ea.seq, a);
    // The service keeps an erased session in its list: a pull brings its row back, still hidden.
    cache.db.prepare('INSERT INTO sessions (session_id, account_id, filename, language, status, last_modified, data) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(a, accountId, '', 'en', 'failed', '2027-01-01T00:00:00.000Z', JSON.stringify({ ...sessionRes(a, '2027-01-01T00:00:00.000Z'), filename: '' }));
    expect(listed({ offset: 0, limit: 5 }).items.map((s) => s.session_id)).not.toContain(a);

    const eb = queued.find((e) => e.session_id === b)!;
    sessionDeleteRefused(cache.db, eb.seq, b, 'this session is under legal hold');
    const back = listed({ offset: 0, limit: 5 }).items.find((s) => s.session_id === b);
    expect(back?.delete_refused).toBe('this session is under legal hold');
    expect(cache.pendingCount()).toBe(0);
  });
});
