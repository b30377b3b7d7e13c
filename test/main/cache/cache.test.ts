import Database from 'better-sqlite3';
import { closeSync, openSync, readdirSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Cache, CacheTooNewError, cacheMigrations, migrate } from '../../../main/cache';
import { mergeContent } from '../../../main/sync/merge';
import { cleanup, tempDir } from '../../helpers/service';
import { documentRes, segment, sessionRes, transcript, user } from '../helpers/fixtures';

const dirs: string[] = [];
const dir = () => {
  const d = tempDir('s2t-cache-');
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach(cleanup));

describe('cache', () => {
  it('runs each migration step on a populated database and keeps the data', () => {
    const file = join(dir(), 'cache.db');
    const db = new Database(file);
    // Step 1 only, then fill it as an older app version would have.
    migrate(db, file, cacheMigrations, 1);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    db.prepare("INSERT INTO accounts (id, service_url, email, user_json, is_current, updated_at) VALUES (7, 'http://x', 'a@example.com', ?, 1, 'now')").run(JSON.stringify(user));
    db.prepare("INSERT INTO sessions (session_id, account_id, filename, language, data, last_modified) VALUES ('s1', 7, 'f.wav', 'en', ?, '2026-01-01T00:00:00.000Z')").run(JSON.stringify(sessionRes('s1', '2026-01-01T00:00:00.000Z')));
    const doc = documentRes('d1', 's1', '2026-01-01T00:00:00.000Z', ['the quick brown fox', 'jumps over the lazy dog']);
    db.prepare("INSERT INTO documents (id, session_id, filename, type, language, last_modified, timecode_offset, meta, body) VALUES ('d1', 's1', 'd1.json', 'document', 'en', ?, '00:00:00:00', '{}', ?)").run(doc.last_modified, JSON.stringify(doc.document));
    db.prepare("INSERT INTO outbox (document_id, session_id, op, payload, created_at) VALUES ('d1', 's1', 'rename', '{\"op\":\"rename\",\"filename\":\"x\"}', 'now')").run();
    // Step 2: uploads.
    migrate(db, file, cacheMigrations, 2);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    db.prepare("INSERT INTO uploads (path, content_hash, state, created_at, updated_at) VALUES ('/a.wav', 'h', 'queued', 'now', 'now')").run();
    // Step 3: search, which must index what was already cached.
    migrate(db, file, cacheMigrations, 3);
    expect(db.pragma('user_version', { simple: true })).toBe(3);
    // Step 4: the list order index replaces the old one.
    migrate(db, file, cacheMigrations, 4);
    expect(db.pragma('user_version', { simple: true })).toBe(4);
    // Step 5: the outbox learns failures and the version a send went out at; share links.
    migrate(db, file, cacheMigrations, 5);
    expect(db.pragma('user_version', { simple: true })).toBe(5);
    expect(db.prepare('SELECT failures, sent_version, attempts FROM outbox').all()).toEqual([{ failures: 0, sent_version: null, attempts: 0 }]);
    expect(db.prepare('SELECT count(*) AS n FROM share_links').get()).toEqual({ n: 0 });
    const plan = db.prepare('EXPLAIN QUERY PLAN SELECT data FROM sessions WHERE account_id = 7 ORDER BY last_modified DESC, session_id LIMIT 10').all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).not.toContain('TEMP B-TREE');
    // Step 6: rows are indexed by the cache's writes, no longer by a trigger; what step 3 indexed stays.
    migrate(db, file, cacheMigrations, 6);
    expect(db.pragma('user_version', { simple: true })).toBe(6);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").pluck().all()).toEqual(['text_segments_ad']);
    db.prepare("INSERT INTO text_fts(text_fts, rank) VALUES ('integrity-check', 1)").run();
    db.close();
    const cache = Cache.open(file);
    try {
      expect(cache.recovery).toBeNull();
      expect(cache.pendingCount()).toBe(1);
      expect(cache.getDocument('d1')?.body?.content).toEqual(doc.document!.content);
      const hits = cache.search(7, 'lazy', 10);
      expect(hits).toHaveLength(1);
      expect(hits[0].snippet).toContain('«lazy»');
      expect(cache.db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(cache.db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      cache.close();
    }
  });

  it('refuses a database newer than the app with a clear message', () => {
    const file = join(dir(), 'cache.db');
    Cache.open(file).close();
    const db = new Database(file);
    db.pragma('user_version = 99');
    db.close();
    expect(() => Cache.open(file)).toThrow(CacheTooNewError);
    expect(() => Cache.open(file)).toThrow(new RegExp(`newer version of S2T Desktop \\(schema 99; this version knows up to ${Math.max(...cacheMigrations.map((m) => m.version))}\\)`));
  });

  it('finds words across documents with snippets and the time of the hit', () => {
    const cache = Cache.open(join(dir(), 'cache.db'));
    try {
      cache.setCurrentAccount('http://x', user);
      const t = '2026-01-01T00:00:00.000Z';
      cache.applyPullPage(7, [sessionRes('s1', t), sessionRes('s2', t)], new Map([
        ['s1', [documentRes('d1', 's1', t, ['hello world', 'the élan of zebras crossing'])]],
        ['s2', [documentRes('d2', 's2', t, ['nothing here', 'more text', 'a zebra appears'])]],
      ]));
      const hits = cache.search(7, 'elan zebr', 10);
      expect(hits).toHaveLength(1);
      expect(hits[0]).toMatchObject({ document_id: 'd1', session_id: 's1' });
      expect(hits[0].snippet).toContain('«élan»');
      expect(hits[0].time_ms).toBe(10_000 + 300); // second segment, second word
      const zebra = cache.search(7, 'zebra', 10);
      // The last word is a prefix: "zebra" also finds "zebras".
      expect(zebra.map((h) => [h.document_id, h.time_ms]).sort()).toEqual([['d1', 10_000 + 900], ['d2', 20_000 + 300]]);
      // FTS syntax in the query is data, not syntax.
      expect(cache.search(7, 'zebra" OR "hello', 10)).toEqual([]);
      // A local save reindexes in the same transaction.
      cache.saveDocument('d2', transcript(['giraffes only']));
      expect(cache.search(7, 'zebra', 10).map((h) => h.document_id)).toEqual(['d1']);
      expect(cache.search(7, 'giraffes', 10)[0].time_ms).toBe(0);
      // Another account sees nothing of this one.
      expect(cache.search(8, 'giraffes', 10)).toEqual([]);
    } finally {
      cache.close();
    }
  });

  it('keeps the search index in step with its rows through every kind of write', () => {
    const cache = Cache.open(join(dir(), 'cache.db'));
    const indexSound = () => cache.db.prepare("INSERT INTO text_fts(text_fts, rank) VALUES ('integrity-check', 1)").run();
    const found = (q: string) => cache.search(7, q, 10).map((h) => h.document_id).sort();
    try {
      cache.setCurrentAccount('http://x', user);
      const t1 = '2026-01-01T00:00:00.000Z';
      const t2 = '2026-01-02T00:00:00.000Z';
      cache.applyPullPage(7, [sessionRes('s1', t1), sessionRes('s2', t1)], new Map([
        ['s1', [documentRes('d1', 's1', t1, ['alpha beta', 'gamma'])]],
        ['s2', [documentRes('d2', 's2', t1, ['alpha delta'])]],
      ]));
      indexSound();
      expect(found('alpha')).toEqual(['d1', 'd2']);
      // The service changed d1; a page that lists d2 twice, in two versions, keeps the later one.
      cache.applyPullPage(7, [sessionRes('s1', t2), sessionRes('s2', t2)], new Map([
        ['s1', [documentRes('d1', 's1', t2, ['epsilon'])]],
        ['s2', [documentRes('d2', 's2', t2, ['zeta first']), documentRes('d2', 's2', '2026-01-03T00:00:00.000Z', ['zeta second'])]],
      ]));
      indexSound();
      expect(found('alpha')).toEqual([]);
      expect(found('epsilon')).toEqual(['d1']);
      expect(found('second')).toEqual(['d2']);
      expect(found('first')).toEqual([]);
      // Local writes: a save, a copy, cleared text, a conflict copy, a delete.
      cache.saveDocument('d1', transcript(['eta theta']));
      const copy = cache.mutate('d1', { op: 'copy', newFilename: 'copy.json' }).documentId!;
      cache.mutate('d2', { op: 'clearText' });
      const conflict = cache.addConflictCopy('d1', 'd1 (conflict).json', { document_type: 'transcript', metadata: {}, content: transcript(['iota']) });
      indexSound();
      expect(found('theta')).toEqual([copy, 'd1'].sort());
      expect(found('zeta')).toEqual([]);
      expect(found('iota')).toEqual([conflict]);
      cache.mutate('d1', { op: 'delete' });
      indexSound();
      expect(found('theta')).toEqual([copy]);
    } finally {
      cache.close();
    }
  });

  it('finds words with inner punctuation, split as the FTS5 tokenizer splits them', () => {
    const cache = Cache.open(join(dir(), 'cache.db'));
    try {
      cache.setCurrentAccount('http://x', user);
      const t = '2026-01-01T00:00:00.000Z';
      cache.applyPullPage(7, [sessionRes('s1', t)], new Map([['s1', [documentRes('d1', 's1', t, ['well I don\'t know', 'it\'s the e-mail of Jean-Luc, isn\'t it'])]]]));
      // The word the user typed, punctuation and all, is found at its own time.
      expect(cache.search(7, "don't", 10).map((h) => [h.document_id, h.time_ms])).toEqual([['d1', 600]]);
      expect(cache.search(7, "Don't know", 10)).toHaveLength(1);
      expect(cache.search(7, 'e-mail', 10).map((h) => h.time_ms)).toEqual([10_000 + 600]);
      expect(cache.search(7, 'e-mail', 10)[0].snippet).toContain('«e-mail»');
      expect(cache.search(7, 'jean-luc', 10).map((h) => h.time_ms)).toEqual([10_000 + 1200]);
      expect(cache.search(7, "isn't", 10).map((h) => h.time_ms)).toEqual([10_000 + 1500]);
      // As a phrase: "don't" is not any "don" plus any "t" elsewhere.
      expect(cache.search(7, "it't", 10)).toEqual([]);
      // Curly apostrophes split the same way.
      expect(cache.search(7, 'don’t', 10)).toHaveLength(1);
    } finally {
      cache.close();
    }
  });

  it('rebuilds a search index that disagrees with its rows, in place', () => {
    const file = join(dir(), 'cache.db');
    const cache = Cache.open(file);
    cache.setCurrentAccount('http://x', user);
    const t = '2026-01-01T00:00:00.000Z';
    cache.applyPullPage(7, [sessionRes('s1', t)], new Map([['s1', [documentRes('d1', 's1', t, ['needle in a haystack'])]]]));
    // Take one row out of the index behind the content table's back.
    const row = cache.db.prepare('SELECT rowid, text FROM text_segments').get() as { rowid: number; text: string };
    cache.db.prepare("INSERT INTO text_fts(text_fts, rowid, text) VALUES ('delete', ?, ?)").run(row.rowid, row.text);
    expect(cache.search(7, 'needle', 5)).toEqual([]);
    cache.close();
    const again = Cache.open(file);
    try {
      expect(again.recovery).toBeNull(); // the rows were sound: nothing moved aside
      expect(again.search(7, 'needle', 5)).toHaveLength(1);
    } finally {
      again.close();
    }
  });

  it('opens a rebuilt cache under another name when the damaged file cannot be moved, and never throws', () => {
    const d = dir();
    const file = join(d, 'cache.db');
    const cache = Cache.open(file);
    cache.setCurrentAccount('http://x', user);
    const t = '2026-01-01T00:00:00.000Z';
    cache.applyPullPage(7, [sessionRes('s1', t)], new Map([['s1', [documentRes('d1', 's1', t, ['kept words'])]]]));
    cache.saveDocument('d1', transcript(['an unsent edit']));
    cache.close();
    writeFileSync(file, 'this is not sqlite '.repeat(500)); // and the WAL went with the checkpoint on close
    const locked = { rename: () => { throw Object.assign(new Error('EBUSY: resource busy or locked'), { code: 'EBUSY' }); } };
    const first = Cache.open(file, locked);
    try {
      expect(first.recovery).toMatchObject({ movedTo: null, openedAt: `${file}.rebuilt`, keptOutbox: 0 });
    } finally {
      first.close();
    }
    // A file that is not SQLite at all has no outbox to salvage; the next start keeps using the rebuilt file.
    const second = Cache.open(file, locked);
    try {
      expect(second.recovery).toBeNull();
      second.setCurrentAccount('http://x', user);
      second.applyPullPage(7, [sessionRes('s2', t)], new Map([['s2', [documentRes('d2', 's2', t, ['fresh'])]]]));
      second.saveDocument('d2', transcript(['written while the old file was stuck']));
    } finally {
      second.close();
    }
    // Once the damaged file can be moved, the rebuilt one takes the usual name again, edits and all.
    const third = Cache.open(file);
    try {
      expect(third.recovery).toBeNull();
      expect(third.outboxEntries().map((e) => e.document_id)).toEqual(['d2']);
      expect(readdirSync(d).filter((f) => f.includes('.rebuilt'))).toEqual([]);
      expect(readdirSync(d).some((f) => f.startsWith('cache.db.corrupt-'))).toBe(true);
    } finally {
      third.close();
    }
  });

  it('moves a corrupt cache aside, rebuilds it, and keeps the unsent outbox', () => {
    const d = dir();
    const file = join(d, 'cache.db');
    const cache = Cache.open(file);
    cache.setCurrentAccount('http://x', user);
    const t = '2026-01-01T00:00:00.000Z';
    const many = Array.from({ length: 300 }, (_, i) => sessionRes(`s${i}`, t));
    cache.applyPullPage(7, many, new Map(many.map((s) => [s.session_id, [documentRes(`d-${s.session_id}`, s.session_id, t, [`words of ${s.session_id} `.repeat(40)])]])));
    cache.saveDocument('d-s5', transcript(['my unsent edit']));
    cache.mutate('d-s9', { op: 'rename', filename: 'renamed.json' });
    cache.db.pragma('wal_checkpoint(TRUNCATE)');
    cache.close();
    // Scribble over pages in the middle of the file (not the header, not the outbox's first page).
    const buf = Buffer.alloc(4096 * 6, 0x5a);
    const fd = openSync(file, 'r+');
    writeSync(fd, buf, 0, buf.length, 4096 * 40);
    closeSync(fd);
    const again = Cache.open(file);
    try {
      expect(again.recovery).not.toBeNull();
      expect(again.recovery!.reason).toMatch(/integrity|malformed|corrupt/i);
      expect(readdirSync(d).some((f) => f.startsWith('cache.db.corrupt-'))).toBe(true);
      expect(again.db.pragma('integrity_check', { simple: true })).toBe('ok');
      const ops = again.outboxEntries().map((e) => [e.document_id, e.op.op]);
      expect(ops).toEqual([['d-s5', 'save'], ['d-s9', 'rename']]);
      expect(again.getDocument('d-s5')?.body?.content).toEqual(transcript(['my unsent edit']));
      expect(again.search(7, 'unsent', 5)).toHaveLength(1);
    } finally {
      again.close();
    }
    // A file that is not a database at all is also recovered, not a crash.
    writeFileSync(file, 'this is not sqlite '.repeat(500));
    const third = Cache.open(file);
    expect(third.recovery).not.toBeNull();
    third.close();
  });
});

describe('segment merge', () => {
  const base = transcript(['one two', 'three four', 'five six']);
  it('merges changes to different segments', () => {
    const ours = transcript(['ONE two', 'three four', 'five six']);
    const theirs = transcript(['one two', 'three four', 'five SIX']);
    const r = mergeContent(base, ours, theirs);
    expect(r.conflicts).toEqual([]);
    expect(r.content).toEqual(transcript(['ONE two', 'three four', 'five SIX']));
  });
  it('keeps the service version where both changed the same segment, and reports it', () => {
    const ours = transcript(['one two', 'three OURS', 'five six']);
    const theirs = transcript(['one two', 'three THEIRS', 'five six']);
    const r = mergeContent(base, ours, theirs);
    expect(r.conflicts).toEqual(['seg2']);
    expect(r.content).toEqual(theirs);
  });
  it('keeps added and removed segments from each side, in time order', () => {
    const ours = { ...base, segments: [...base.segments, segment('mine', 5_000, 'inserted by us')] };
    const theirs = { ...base, segments: base.segments.filter((s) => s.id !== 'seg3') };
    const r = mergeContent(base, ours, theirs);
    expect(r.conflicts).toEqual([]);
    expect(r.content.kind === 'transcript' && r.content.segments.map((s) => s.id)).toEqual(['seg1', 'mine', 'seg2']);
  });
});
