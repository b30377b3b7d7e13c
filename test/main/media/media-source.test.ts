/**
 * media.source through the app's core against the local service over real HTTP: a session made
 * from a file on this computer plays that file (online and offline); a session without one plays
 * the service's media and keeps a copy on first play, which then plays offline; and when nothing
 * plays, the reason says why (the file moved, named; no media kept; offline and not kept).
 */
import { copyFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultOf } from '../../../common/ipc';
import { bridgeMediaLinker } from '../../../main/ipc/media-route';
import { linkKey, verifyQuery } from '../../../main/media/links';
import { speechWav } from '../../helpers/speech';
import { DEMO, serviceLogin, startService, tempDir, type RunningService } from '../../helpers/service';
import { closeCoreAndService, signedInCore, type TestCore } from '../helpers/harness';

let svc: RunningService;
let t: TestCore;
const token = 'test-run-token';
const work = tempDir('s2t-media-src-');

/** A session made through the service's legacy API from `wav`, finished; its id. */
async function makeSession(name: string, wav: string, keep: boolean): Promise<string> {
  const bearer = { authorization: `Bearer ${await serviceLogin(svc.url, DEMO)}` };
  const tok = await fetch(`${svc.url}/api/v3/tokens`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: JSON.stringify({ name: `k-${name}`, type: 'batch', years_valid: 1 }) });
  const key = ((await tok.json()) as { token_value: string }).token_value;
  const created = await fetch(`${svc.url}/api/v3/speech-to-text/session`, { method: 'POST', headers: { 'x-svc-s2t-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ language: 'en', keep_source: keep }) });
  const id = ((await created.json()) as { result: { session_id: string } }).result.session_id;
  const put = await fetch(`${svc.url}/api/v3/speech-to-text/session/${id}`, { method: 'PUT', headers: { 'x-svc-s2t-key': key, 'x-filename': name, 'content-type': 'audio/wav' }, body: readFileSync(wav) });
  expect(put.ok).toBe(true);
  // Wait for the job (beforeAll has no expect.poll).
  for (let status = ''; status !== 'completed'; await new Promise((r) => setTimeout(r, 500))) {
    status = ((await (await fetch(`${svc.url}/api/v3/speech-to-text/session/${id}`, { headers: bearer })).json()) as { result: { status: string } }).result.status;
    if (status === 'failed' || status === 'dead_letter') throw new Error(`session ${name} ${status}`);
  }
  return id;
}

const source = (sessionId: string) => t.h['media.source']({ sessionId });
type Playable = Extract<ResultOf<'media.source'>, { url: string }>;
const playable = (s: ResultOf<'media.source'>) => (s.url === null ? expect.fail(`not playable: ${'reason' in s ? s.reason : ''}`) : (s as Playable));

let wav: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  t = await signedInCore(svc.url);
  t.core.media.setLinker(bridgeMediaLinker(token));
  wav = join(work, 'interview.wav');
  copyFileSync(await speechWav('the quick brown fox jumps over the lazy dog'), wav);
  [ids.local, ids.kept, ids.neverPlayed, ids.noMedia] = await Promise.all([
    makeSession('interview.wav', wav, true),
    makeSession('kept.wav', wav, true),
    makeSession('never-played.wav', wav, true),
    makeSession('no-media.wav', wav, false),
  ]);
  await t.h['sync.now']({});
}, 300_000);
afterAll(async () => closeCoreAndService({ core: t, svc }));

describe('media.peaks, online', () => {
  it("draws the service's waveform (audiowaveform JSON from its signed link)", async () => {
    const got = await t.h['media.peaks']({ sessionId: ids.kept });
    if (got.peaks === null) return expect.fail(`no peaks: ${'reason' in got ? got.reason : ''}`);
    expect(got).toMatchObject({ from: 'service', perSecond: 100 });
    expect(Math.max(...Buffer.from(got.peaks, 'base64'))).toBeGreaterThan(60);
  });

  it("says why the service's waveform could not be read (its answer checked by the client like any call) when the media is not here either", async () => {
    // The service's waveform spoiled on its disk: its answer no longer follows the sessions.waveform route.
    writeFileSync(join(svc.dataDir, 'media', ids.noMedia, 'waveform.json'), JSON.stringify({ data: [1, 2] }));
    expect(await t.h['media.peaks']({ sessionId: ids.noMedia })).toEqual({ peaks: null, reason: expect.stringMatching(/^No waveform: the service's could not be read \(.*malformed response from sessions\.waveform/) });
  });
});

describe('media.source', () => {
  it('plays the file a session was made from, through a signed link to that very file', async () => {
    // What watch folders and new transcriptions report (onSessionKnown).
    t.core.media.rememberLocal(t.core.mediaAccount()!, ids.local, wav);
    const s = playable(await source(ids.local));
    expect(s).toMatchObject({ kind: 'audio', origin: 'local' });
    const opened = verifyQuery(linkKey(token), new URL(s.url, 'http://x').searchParams);
    expect(opened).toEqual({ path: wav, mediaType: expect.stringMatching(/^audio\/(wav|x-wav|vnd\.wave)$/) });
  });

  it("plays the service's media first, keeps a copy in the background, then plays the copy", async () => {
    const first = playable(await source(ids.kept));
    expect(first.origin).toBe('service');
    expect(first.kind).toBe('audio');
    // Relayed through main: the link names the service's media link, signed; the page never holds it.
    const relayed = verifyQuery(linkKey(token), new URL(first.url, 'http://x').searchParams);
    if (typeof relayed === 'string' || !('url' in relayed)) return expect.fail(`not a relayed link: ${JSON.stringify(relayed)}`);
    expect(relayed.url.startsWith(`${svc.url}/`)).toBe(true);
    expect(first.url).not.toContain(svc.url);
    await t.core.media.cache.downloading(t.core.mediaAccount()!, ids.kept);
    const second = playable(await source(ids.kept));
    expect(second).toMatchObject({ origin: 'cache', kind: 'audio' });
    const file = verifyQuery(linkKey(token), new URL(second.url, 'http://x').searchParams);
    if (typeof file === 'string' || !('path' in file)) return expect.fail(`not a file link: ${JSON.stringify(file)}`);
    // The copy is the service's media, byte for byte.
    const served = Buffer.from(await (await fetch(relayed.url)).arrayBuffer());
    expect(readFileSync(file.path).equals(served)).toBe(true);
    expect(file.mediaType).toBe('audio/mpeg');
  });

  it('says the service keeps no media when it does not', async () => {
    expect(await source(ids.noMedia)).toEqual({ url: null, reason: expect.stringMatching(/service keeps no media/) });
  });

  it('offline: the local file and the kept copy still play; the rest say why, naming a moved file', async () => {
    await svc.stop();
    expect(playable(await source(ids.local)).origin).toBe('local');
    expect(playable(await source(ids.kept)).origin).toBe('cache');
    expect(await source(ids.neverPlayed)).toEqual({ url: null, reason: expect.stringMatching(/cannot be reached.*not been kept on this computer/) });

    const moved = join(work, 'elsewhere.wav');
    renameSync(wav, moved);
    const gone = await source(ids.local);
    expect(gone.url).toBeNull();
    expect('reason' in gone && gone.reason).toContain(wav);
    expect('reason' in gone && gone.reason).toMatch(/moved or deleted.*cannot be reached/);
    // Put back, it plays again.
    renameSync(moved, wav);
    expect(playable(await source(ids.local)).origin).toBe('local');
  });
});

describe('media.peaks, offline', () => {
  it("draws the service's waveform kept on disk, and the one of the file a session was made from, also when only watch folders' records know it", async () => {
    await svc.stop();
    expect(await t.h['media.peaks']({ sessionId: ids.kept })).toMatchObject({ from: 'service', perSecond: 100 });
    // A session from before the media table: only watch folders know its file (setLocalLookup, as the account runtime wires it).
    t.core.media.setLocalLookup((sessionId) => (sessionId === ids.neverPlayed ? wav : null));
    const got = await t.h['media.peaks']({ sessionId: ids.neverPlayed });
    if (got.peaks === null) return expect.fail(`no peaks: ${'reason' in got ? got.reason : ''}`);
    expect(got).toMatchObject({ from: 'local', perSecond: 100 });
    // One peak per 10 ms of the WAV, and the speech in it is loud somewhere.
    const peaks = Buffer.from(got.peaks, 'base64');
    expect(peaks.length).toBeGreaterThan(100);
    expect(Math.max(...peaks)).toBeGreaterThan(60);
  });
});
