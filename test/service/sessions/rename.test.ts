/**
 * Renaming a session over real HTTP (PATCH /session/{id}, our addition: the spec names no way to
 * change a session's name): the single read, the list (SQLite's stored session text) and its
 * search all give the new name; a bad name is refused in words; another caller's view is scoped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, serviceLogin, startService, stopAndRemove, type RunningService } from '../../helpers/service';
import { seedService, type Seeded } from '../../main/helpers/seed';

let svc: RunningService;
let token: string;
let seeded: Seeded;
const SESSION = '/api/v3/speech-to-text/session';

beforeAll(async () => {
  svc = await startService();
  token = await serviceLogin(svc.url, DEMO);
  seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: 2 });
}, 60_000);
afterAll(() => stopAndRemove(svc));

async function call(method: string, path: string, body?: unknown, auth = true): Promise<{ status: number; body: { result?: { filename: string; last_modified?: string }; error?: unknown } }> {
  const res = await fetch(`${svc.url}${path}`, {
    method,
    headers: { ...(auth ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as never };
}

describe('renaming a session', () => {
  it('renames it: the answer, the single read, the list and its search give the new name, and the version moves', async () => {
    const { sessionId } = seeded.sessions[0];
    const before = await call('GET', `${SESSION}/${sessionId}`);
    expect(before.body.result?.filename).toBe('recording-0.wav');
    const renamed = await call('PATCH', `${SESSION}/${sessionId}`, { filename: '  Board meeting, March  ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.result?.filename).toBe('Board meeting, March');
    expect(renamed.body.result?.last_modified).not.toBe(before.body.result?.last_modified);
    expect((await call('GET', `${SESSION}/${sessionId}`)).body.result?.filename).toBe('Board meeting, March');
    const listed = (await call('GET', `${SESSION}?limit=100`)).body as unknown as { result: { session_id: string; filename: string }[] };
    expect(listed.result.find((s) => s.session_id === sessionId)?.filename).toBe('Board meeting, March');
    const found = (await call('GET', `${SESSION}?q=${encodeURIComponent('Board meeting')}`)).body as unknown as { result: { session_id: string }[] };
    expect(found.result.map((s) => s.session_id)).toEqual([sessionId]);
  });

  it('the same name again answers the same and leaves the version alone (a retry is safe)', async () => {
    const { sessionId } = seeded.sessions[0];
    const first = await call('PATCH', `${SESSION}/${sessionId}`, { filename: 'Board meeting, March' });
    const again = await call('PATCH', `${SESSION}/${sessionId}`, { filename: 'Board meeting, March' });
    expect(again.status).toBe(200);
    expect(again.body.result?.last_modified).toBe(first.body.result?.last_modified);
  });

  it('refuses an empty name, a line break and an over-long name in words, and changes nothing', async () => {
    const { sessionId } = seeded.sessions[1];
    for (const [filename, words] of [['   ', /give the session a name/], ['two\nlines', /line breaks or control characters/], ['x'.repeat(256), /255/]] as const) {
      const res = await call('PATCH', `${SESSION}/${sessionId}`, { filename });
      expect(res.status).toBe(422);
      expect(JSON.stringify(res.body)).toMatch(words);
    }
    expect((await call('GET', `${SESSION}/${sessionId}`)).body.result?.filename).toBe('recording-1.wav');
  });

  it('needs a sign-in, and an unknown session is 404', async () => {
    const { sessionId } = seeded.sessions[1];
    expect((await call('PATCH', `${SESSION}/${sessionId}`, { filename: 'x' }, false)).status).toBe(401);
    expect((await call('PATCH', `${SESSION}/no-such-session`, { filename: 'x' })).status).toBe(404);
    expect((await call('GET', `${SESSION}/${sessionId}`)).body.result?.filename).toBe('recording-1.wav');
  });
});
