/**
 * The session list answers JSON text that SQLite builds (service/sessions/present.ts,
 * SESSION_WIRE_SQL); a single session is still built as an object by toSession and checked by zod.
 * These tests pin the two together over real HTTP, on sessions of every shape, and show that the
 * check of the text runs under test.
 */
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, SessionMode, SessionStatus } from '../../../common/api';
import { DEMO, serviceLogin, startService, stopAndRemove, type RunningService } from '../../helpers/service';

let svc: RunningService;
let token: string;
let db: Database.Database;
const LIST = '/api/v3/speech-to-text/session';
const ListPage = routes['sessions.list'].response.schema;
const OnePage = routes['sessions.get'].response.schema;

async function getJson(path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${svc.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json() };
}

/** Sessions of every shape: each status and mode, kept media, a waveform, meta_data, text that needs escaping, odd numbers. */
function seed(): string[] {
  const { id: userId, org_id: orgId } = db.prepare('SELECT id, org_id FROM users WHERE email = ?').get(DEMO.email) as { id: number; org_id: number };
  const insert = db.prepare(
    `INSERT INTO sessions (session_id, org_id, user_id, filename, duration, error, media_type, language, status, session_mode, keep_media, diarization,
       punctuation, allow_magic_link_export, created_at, last_modified, date_upload, date_finished, date_retried, date_session_start, kept_path, waveform_path, meta_data)
     VALUES (@session_id, @org, @user, @filename, @duration, @error, @media_type, @language, @status, @mode, @keep, @diar, 1, @magic, @at, @at, @upload, @finished, @retried, @start, @kept, @wave, @meta)`,
  );
  const odd = 'quote " backslash \\ newline \n tab \t line sep \u2028 é 日本 🎙️ </script>';
  const ids: string[] = [];
  const modes = [null, ...SessionMode.options];
  const durations = [0, 60, 12.345, 86399.5, 1e-7];
  SessionStatus.options.forEach((status, i) => {
    modes.forEach((mode, j) => {
      const n = i * modes.length + j;
      const sessionId = `shape-${n}`;
      const kept = n % 3 === 0 ? join(svc.dataDir, `${sessionId}.mp3`) : n % 3 === 1 ? '' : null;
      const wave = n % 4 === 0 ? join(svc.dataDir, `${sessionId}.json`) : n % 4 === 1 ? '' : null;
      if (kept) writeFileSync(kept, `media of ${sessionId}`);
      if (wave) writeFileSync(wave, JSON.stringify({ sessionId }));
      const at = new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString();
      insert.run({
        session_id: sessionId, org: orgId, user: userId, filename: n % 2 ? `${odd}.wav` : `plain-${n}.wav`, duration: durations[n % durations.length],
        error: status === 'failed' ? odd : null, media_type: n % 2 ? 'video/mp4' : 'audio/wav', language: n % 2 ? 'de-DE' : 'en-US', status, mode,
        keep: n % 2, diar: (n >> 1) % 2, magic: (n >> 2) % 2, at, upload: n % 2 ? at : null, finished: status === 'completed' ? at : null,
        retried: n % 5 === 0 ? at : null, start: n % 3 === 0 ? at : null, kept, wave,
        meta: n % 3 === 2 ? JSON.stringify({ customer: odd, ref: String(n) }) : n % 6 === 1 ? '' : null,
      });
      ids.push(sessionId);
    });
  });
  return ids;
}

let seeded: string[];
beforeAll(async () => {
  svc = await startService();
  token = await serviceLogin(svc.url, DEMO);
  db = new Database(join(svc.dataDir, 'service.db'));
  db.pragma('busy_timeout = 5000');
  seeded = seed();
});
afterAll(async () => {
  db?.close();
  await stopAndRemove(svc);
});

/** A signed link without its signature (exp and sig differ between two readings a second apart). */
const unsigned = (url: unknown) => (typeof url === 'string' ? url.replace(/\?exp=\d+&sig=[\w-]+$/, '') : url);

type Listed = ReturnType<typeof ListPage.parse>['result'][number];

/** Lists every session and compares each with its single read (toSession, checked by zod); returns the list. */
async function expectListMatchesSingleReads(): Promise<Listed[]> {
  const list = await getJson(`${LIST}?limit=100`);
  expect(list.status).toBe(200);
  const page = ListPage.parse(list.body);
  expect(page.count).toBe(page.result.length);
  for (const listed of page.result) {
    const one = await getJson(`${LIST}/${listed.session_id}`);
    expect(one.status).toBe(200);
    const single = OnePage.parse(one.body).result;
    const [a, b] = [listed, single].map((s) => ({ ...s, media_url: unsigned(s.media_url), wave_info_url: unsigned(s.wave_info_url) }));
    expect(a, listed.session_id).toEqual(b);
    expect(Object.keys(listed).sort(), listed.session_id).toEqual(Object.keys(single).sort());
  }
  return page.result;
}

describe('session list', () => {
  it('lists every session as the single read presents it, and the envelope fits the contract', async () => {
    const result = await expectListMatchesSingleReads();
    expect(result.map((s) => s.session_id).sort()).toEqual([...seeded].sort());
    // The shapes are really there, so the comparison above covered them.
    const of = (pred: (s: Listed) => boolean) => result.filter(pred).length;
    expect(of((s) => s.media_url !== '')).toBeGreaterThan(0);
    expect(of((s) => s.wave_info_url !== undefined)).toBeGreaterThan(0);
    expect(of((s) => 'meta_data' in s)).toBeGreaterThan(0);
    expect(of((s) => s.error !== null && s.error.includes('🎙️'))).toBeGreaterThan(0);
    expect(of((s) => s.keep_media === true) * of((s) => s.keep_media === false)).toBeGreaterThan(0);
  });

  it('follows every change and deletion of a session (the stored JSON is rewritten with the row)', async () => {
    db.prepare(
      `UPDATE sessions SET status = 'failed', error = 'went "wrong" \\ here', filename = filename || ' (renamed)', duration = duration + 0.5,
         keep_media = 1 - keep_media, diarization = 1 - diarization, allow_magic_link_export = 1 - allow_magic_link_export,
         session_mode = 'align', date_retried = '2026-02-02T00:00:00.000Z', last_modified = '2026-02-02T00:00:00.000Z' WHERE session_id IN ('shape-1', 'shape-2')`,
    ).run();
    db.prepare("UPDATE sessions SET kept_path = NULL, waveform_path = NULL, meta_data = NULL WHERE session_id = 'shape-0'").run();
    writeFileSync(join(svc.dataDir, 'shape-4.json'), JSON.stringify({ sessionId: 'shape-4' }));
    db.prepare("UPDATE sessions SET meta_data = '{\"added\":\"later\"}', waveform_path = ? WHERE session_id = 'shape-4'").run(join(svc.dataDir, 'shape-4.json'));
    db.prepare("DELETE FROM sessions WHERE session_id = 'shape-5'").run();
    const result = await expectListMatchesSingleReads();
    const byId = new Map(result.map((s) => [s.session_id, s]));
    expect(byId.has('shape-5')).toBe(false);
    expect(result.length).toBe(seeded.length - 1);
    expect(byId.get('shape-1')).toMatchObject({ status: 'failed', error: 'went "wrong" \\ here', session_mode: 'align' });
    expect(byId.get('shape-0')).toMatchObject({ media_url: '' });
    expect(byId.get('shape-0')).not.toHaveProperty('wave_info_url');
    expect(byId.get('shape-4')).toMatchObject({ meta_data: { added: 'later' }, wave_info_url: expect.stringContaining('/waveform?exp=') });
    seeded = seeded.filter((id) => id !== 'shape-5');
  });

  it("answers signed media and waveform links that open this session's files", async () => {
    const page = ListPage.parse((await getJson(`${LIST}?limit=100`)).body);
    const withMedia = page.result.filter((s) => s.media_url !== '');
    const withWave = page.result.filter((s) => s.wave_info_url);
    expect(withMedia.length * withWave.length).toBeGreaterThan(0);
    for (const s of withMedia) {
      const res = await fetch(s.media_url);
      expect(res.status, s.session_id).toBe(200);
      expect(await res.text()).toBe(`media of ${s.session_id}`);
    }
    for (const s of withWave) {
      const res = await fetch(s.wave_info_url!);
      expect(res.status, s.session_id).toBe(200);
      expect(await res.json()).toEqual({ sessionId: s.session_id });
    }
  });

  it('keeps paging, search and sort', async () => {
    const first = ListPage.parse((await getJson(`${LIST}?limit=5&sort=filename&direction=asc`)).body);
    const rest = ListPage.parse((await getJson(`${LIST}?limit=100&offset=5&sort=filename&direction=asc`)).body);
    const all = [...first.result, ...rest.result];
    expect(first.count).toBe(5);
    expect(all.map((s) => s.session_id).sort()).toEqual([...seeded].sort());
    const names = all.map((s) => s.filename);
    expect(names).toEqual([...names].sort());
    const found = ListPage.parse((await getJson(`${LIST}?q=${encodeURIComponent('日本')}`)).body);
    expect(found.total_results).toBeGreaterThan(0);
    expect(found.total_results).toBeLessThan(seeded.length);
    expect(found.result.every((s) => s.filename.includes('日本'))).toBe(true);
    const past = ListPage.parse((await getJson(`${LIST}?offset=1000`)).body);
    expect(past).toEqual({ count: 0, total_results: seeded.length, result: [] });
  });

  it('checks the text against the contract under test: a row the contract does not allow is a 500, not an answer', async () => {
    const { id: userId, org_id: orgId } = db.prepare('SELECT id, org_id FROM users WHERE email = ?').get(DEMO.email) as { id: number; org_id: number };
    const at = new Date().toISOString();
    db.prepare(
      "INSERT INTO sessions (session_id, org_id, user_id, filename, language, status, created_at, last_modified) VALUES ('bad-status', ?, ?, 'x.wav', 'en-US', 'no-such-status', ?, ?)",
    ).run(orgId, userId, at, at);
    try {
      const list = await getJson(`${LIST}?limit=100`);
      expect(list).toEqual({ status: 500, body: { error: 'internal error' } });
    } finally {
      db.prepare("DELETE FROM sessions WHERE session_id = 'bad-status'").run();
    }
    expect((await getJson(`${LIST}?limit=100`)).status).toBe(200);
  });
});
