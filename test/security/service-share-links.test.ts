/**
 * Magic links after they are handed out, over real HTTP (the service believes X-Forwarded-For
 * from loopback here, as behind a reverse proxy, so each test is its own client):
 * - a link sent by e-mail answered only {sent, message_id}: it could not be listed or revoked
 *   and kept working, export included, for 30 days;
 * - the viewer's signed media link kept downloading the recording for hours after the link was
 *   revoked, even for a link that did not allow export;
 * - wrong tokens were never throttled: the rate key was the token's first 12 characters and the
 *   viewer page had no limiter (200 guesses, no 429).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShareLinkList, SharesRevoked } from '../../common/api';
import { startService, stopAndRemove, type RunningService } from '../helpers/service';
import { speechWav } from '../helpers/speech';
import { must } from '../service/answers';
import { client, putMedia, sessionDone, type Client } from '../service/work/helpers';

const STT = '/api/v3/speech-to-text';

let svc: RunningService;
let c: Client;
let sid: string;
let docId: string;

const base = () => `${STT}/session/${sid}/document/${docId}`;
/** A request from one client behind the proxy. */
const from = (client: string, path: string, init: RequestInit = {}) =>
  fetch(`${svc.url}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-forwarded-for': client } });
const owner = (method: string, path: string, body?: unknown) =>
  from('10.0.0.1', path, { method, headers: { ...c.bearer, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
const tokenOf = (url: string) => must(new URL(url).searchParams.get('token'), 'token');
const pagePath = (url: string) => new URL(url).pathname + new URL(url).search;

async function list() {
  const res = await owner('GET', `${base()}/share`);
  expect(res.status).toBe(200);
  return ShareLinkList.parse(await res.json()).links;
}

/** Sends a link by e-mail and reads it back out of the mail spool. */
async function mailLink(to: string): Promise<{ linkId: string; url: string }> {
  const res = await owner('POST', `${base()}/share/email`, { email: to, message: 'Have a look.' });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { link_id?: string; message_id: string };
  const spool = join(svc.dataDir, 'mail-spool');
  const mail = readdirSync(spool).map((f) => readFileSync(join(spool, f), 'utf8').replace(/=\r\n/g, '').replace(/=3D/g, '=')).find((m) => m.includes(body.message_id));
  const url = must(/(http:\/\/\S+\/transcripts\/shared\/\S+)/.exec(must(mail, 'the message'))?.[1], 'the link in the message');
  return { linkId: must(body.link_id, 'link_id in the answer'), url };
}

beforeAll(async () => {
  svc = await startService({ args: ['--trust-proxy', 'loopback'] });
  c = await client(svc.url);
  const created = await c.json('sessions.create', `${STT}/session`, { language: 'en', keep_source: true }, { 'x-svc-s2t-key': c.batchKey });
  sid = created.body.result.session_id;
  const wav = await speechWav('The council will pay for the work.');
  expect((await putMedia(c, sid, new Uint8Array(readFileSync(wav)), { 'content-type': 'audio/wav', 'x-filename': 'council.wav' })).status).toBe(200);
  expect((await sessionDone(c, sid, 120_000)).status).toBe('completed');
  docId = must((await c.json('documents.list', `${STT}/session/${sid}/document`)).body.result.find((d) => d.type === 'document'), 'the transcript').id;
}, 150_000);

afterAll(() => stopAndRemove(svc));

describe('a mailed link', () => {
  it('is listed with how it was made and to whom, and revoking it by id ends it, export included', async () => {
    const { linkId, url } = await mailLink('friend@example.org');
    const token = tokenOf(url);
    const exportPath = `${base()}/shared/export/txt?token=${encodeURIComponent(token)}`;
    expect((await from('10.0.1.1', exportPath)).status).toBe(200);

    const listed = (await list()).find((l) => l.id === linkId);
    expect(listed).toMatchObject({ via: 'email', mailed_to: 'friend@example.org', allow_editing: false, allow_export: true });
    expect(JSON.stringify(await list())).not.toContain(token);

    const revoked = await owner('DELETE', `${base()}/share/${linkId}`);
    expect(revoked.status).toBe(200);
    expect((await list()).map((l) => l.id)).not.toContain(linkId);
    expect((await from('10.0.1.1', exportPath)).status).toBe(401);
    expect((await from('10.0.1.1', `${base()}/shared?token=${encodeURIComponent(token)}`)).status).toBe(401);
    expect((await from('10.0.1.1', pagePath(url))).status).toBe(410);
  });

  it('revoke all ends every live link of the document, asked for and mailed alike', async () => {
    const asked = (await (await owner('POST', `${base()}/share`, { allow_editing: true, allow_export: false })).json()) as { id: string; url: string };
    const mailed = await mailLink('other@example.org');
    expect((await list()).map((l) => l.id)).toEqual(expect.arrayContaining([asked.id, mailed.linkId]));
    const res = await owner('DELETE', `${base()}/share`);
    expect(res.status).toBe(200);
    expect(SharesRevoked.parse(await res.json()).revoked).toBeGreaterThanOrEqual(2);
    expect(await list()).toEqual([]);
    for (const url of [asked.url, mailed.url]) expect((await from('10.0.2.1', `${base()}/shared?token=${encodeURIComponent(tokenOf(url))}`)).status).toBe(401);
  });
});

describe("the viewer's media link", () => {
  it('stops with its link: a revoked read-only, no-export link no longer downloads the recording', async () => {
    const link = (await (await owner('POST', `${base()}/share`, { allow_editing: false, allow_export: false })).json()) as { id: string; url: string };
    const page = await (await from('10.0.3.1', pagePath(link.url))).text();
    const media = must(/<audio[^>]* src="([^"]+)"/.exec(page)?.[1], 'the audio element').replace(/&amp;/g, '&');
    const before = await from('10.0.3.1', media);
    expect(before.status).toBe(200);
    expect((await before.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    expect((await owner('DELETE', `${base()}/share/${link.id}`)).status).toBe(200);
    const after = await from('10.0.3.1', media);
    expect(after.status).toBe(403);
    expect(((await after.json()) as { error: string }).error).toMatch(/revoked or has expired/);
    // The binding cannot be dropped: without its share the signature does not hold.
    expect((await from('10.0.3.1', media.replace(/&share=[^&]+/, ''))).status).toBe(403);
  });
});

describe('guessing tokens', () => {
  it('is stopped per address on the viewer page and the shared API, and no one else is slowed', async () => {
    const link = (await (await owner('POST', `${base()}/share`, { allow_editing: false, allow_export: true })).json()) as { url: string };
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const guess = `guess-${i}-${'x'.repeat(20)}`;
      const path = i % 2 ? `${base()}/shared?token=${guess}` : `/transcripts/shared/${sid}/${docId}?token=${guess}`;
      statuses.push((await from('10.0.66.6', path)).status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 401 || s === 410)).toBe(true);
    expect(statuses.slice(20)).toEqual(Array(10).fill(429));
    const locked = await from('10.0.66.6', pagePath(link.url));
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await locked.text()).toContain('Too many tries');
    // The person the link was made for, elsewhere, opens it.
    expect((await from('10.0.7.7', pagePath(link.url))).status).toBe(200);
  });
});
