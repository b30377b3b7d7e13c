/**
 * A pulled page of sessions applied again unchanged (what most of a full pass is) writes nothing:
 * no row changes and not one byte more in the WAL, since a rewritten row rewrites the entries of
 * every index over the columns it sets. A changed session is still written and reported, and a
 * session flagged as gone from the service is taken back even when nothing else about it changed.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Document, Session } from '../../../common/api';
import { Cache } from '../../../main/cache';
import { cleanup, tempDir } from '../../helpers/service';
import { documentRes, sessionRes, user } from '../helpers/fixtures';

const dir = tempDir('s2t-upsert-');
const file = join(dir, 'cache.db');
let cache: Cache;
let accountId: number;

const T0 = '2026-03-01T10:00:00.000Z';
const sessions: Session[] = Array.from({ length: 60 }, (_, i) => ({ ...sessionRes(`s${String(i).padStart(2, '0')}`, T0), duration: 30 + i, date_upload: T0 }));
const docsOf = (list: Session[]) => new Map<string, Document[]>(list.map((s) => [s.session_id, [documentRes(`d-${s.session_id}`, s.session_id, T0, [`words of ${s.session_id}`])]]));

const totalChanges = () => cache.db.prepare('SELECT total_changes() AS n').pluck().get() as number;
const walBytes = () => statSync(`${file}-wal`).size;
/** Empties the WAL into the database file, so any later write shows as WAL bytes. */
const checkpoint = () => cache.db.pragma('wal_checkpoint(TRUNCATE)');

beforeAll(() => {
  cache = Cache.open(file);
  accountId = cache.setCurrentAccount('http://service.test', user);
  cache.applyPullPage(accountId, sessions, docsOf(sessions));
});
afterAll(() => {
  cache?.close();
  cleanup(dir);
});

describe('applying a pulled page of sessions', () => {
  it('writes nothing when the page is unchanged, with its documents or without', () => {
    checkpoint();
    expect(walBytes()).toBe(0);
    const before = totalChanges();
    expect(cache.applyPullPage(accountId, sessions, docsOf(sessions))).toEqual({ sessions: [], documents: [] });
    expect(cache.applyPullPage(accountId, sessions, new Map())).toEqual({ sessions: [], documents: [] });
    expect(totalChanges()).toBe(before);
    expect(walBytes()).toBe(0);
  });

  it('writes and reports a changed session, and takes back one flagged as gone from the service', () => {
    const flagged = sessions[5].session_id;
    cache.db.prepare('UPDATE sessions SET deleted_on_server = 1 WHERE session_id = ?').run(flagged); // as the sweep flags one with unsent edits
    const T1 = '2026-03-02T09:00:00.000Z';
    const renamed: Session = { ...sessions[3], filename: 'Zebra interview.wav', duration: 999, last_modified: T1 };
    const page = sessions.map((s) => (s.session_id === renamed.session_id ? renamed : s));
    checkpoint();
    const before = totalChanges();
    const docs = docsOf(page);
    docs.set(renamed.session_id, [documentRes(`d-${renamed.session_id}`, renamed.session_id, T1, ['new words'])]);

    expect(cache.applyPullPage(accountId, page, docs)).toEqual({ sessions: [renamed.session_id], documents: [`d-${renamed.session_id}`] });
    expect(totalChanges()).toBeGreaterThan(before);
    expect(walBytes()).toBeGreaterThan(0);
    const row = cache.db.prepare('SELECT filename, last_modified, docs_version, deleted_on_server, data FROM sessions WHERE session_id = ?').get(renamed.session_id);
    expect(row).toEqual({ filename: 'Zebra interview.wav', last_modified: T1, docs_version: T1, deleted_on_server: 0, data: JSON.stringify(renamed) });
    expect(cache.db.prepare('SELECT deleted_on_server FROM sessions WHERE session_id = ?').pluck().get(flagged)).toBe(0);
    // The list's orders read the new values.
    expect(cache.listSessions(accountId, { offset: 0, limit: 1, sort: 'name', direction: 'desc' }).items[0]).toMatchObject({ session_id: renamed.session_id, filename: 'Zebra interview.wav' });
    expect(cache.listSessions(accountId, { offset: 0, limit: 1, sort: 'duration', direction: 'desc' }).items[0].duration).toBe(999);
    expect(cache.getSession(accountId, flagged)?.session.deleted_on_server).toBe(false);
  });
});
