/**
 * Legacy create with media_source, against the real service on a test network: names come from a
 * fake DNS, and only our media server's address (127.0.0.2) is exempt from the private-range
 * check, so every other rule of the guard runs as in production. A good download, refusals
 * (redirect to 127.0.0.1, "localhost.", private and mixed answers), the speech engine the request
 * names, every legacy create key at once, and a kill -9 during a download.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir, type RunningService } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';
import { errorOf, must } from '../answers';
import { readServiceDb } from '../../helpers/service-db';
import { bodyOf, client, docOf, PASSAGE, sessionDone, transcriptOf, until, type Client } from './helpers';
import { closeServer, FakeDns, listenOnTestAddress, Receiver, selfSignedCertificate, startTestNetworkService, TEST_ADDRESS, transitionsOf } from './test-network';

const LEGACY = '/api/v3/speech-to-text/session';
const KEY_WORDS = ['weather', 'today', 'people', 'dogs', 'river', 'dinner', 'day'];

let dir: string;
let wav: Buffer<ArrayBuffer>;
let dns: FakeDns;
let svc: RunningService;
let c: Client;
let media: Server;
let mediaPort: number;
const mediaHits: string[] = [];
let loopback: Server;
let loopbackPort: number;
let loopbackHits = 0;
let receiver: Receiver;
/** Responses of /slow.wav that never finish (held open until the test ends). */
const stalled: { end(): void }[] = [];

const create = (body: unknown) => c.json('sessions.create', LEGACY, body, { 'x-svc-s2t-key': c.batchKey });
const mediaUrl = (host: string, path: string) => `http://${host}:${mediaPort}${path}`;

beforeAll(async () => {
  dir = tempDir('s2t-media-source-');
  wav = readFileSync(await speechWav(PASSAGE));
  media = createServer((req, res) => {
    mediaHits.push(req.url ?? '');
    if (req.url === '/speech.wav') res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length }).end(wav);
    else if (req.url === '/to-loopback') res.writeHead(302, { location: `http://127.0.0.1:${loopbackPort}/speech.wav` }).end();
    else if (req.url === '/slow.wav') {
      // Half a WAV, then nothing: the download is still running when the test kills the service.
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length });
      res.write(wav.subarray(0, 64 * 1024));
      stalled.push(res);
    } else res.writeHead(404).end();
  });
  mediaPort = await listenOnTestAddress(media);
  loopback = createServer((_req, res) => {
    loopbackHits++;
    res.end(wav);
  });
  await new Promise<void>((r) => loopback.listen(0, '127.0.0.1', r));
  loopbackPort = (loopback.address() as { port: number }).port;

  const tls = selfSignedCertificate(dir, ['hooks.test.example']);
  receiver = await new Receiver(tls).listen();
  dns = new FakeDns(dir);
  dns.set('media.test.example', TEST_ADDRESS);
  dns.set('hooks.test.example', TEST_ADDRESS);
  // The name rule alone must refuse "localhost.": here it resolves to the one exempt address.
  dns.set('localhost.', TEST_ADDRESS);
  dns.set('private.test.example', '10.0.0.7');
  dns.set('mixed.test.example', TEST_ADDRESS, '192.168.1.20');
  svc = await startTestNetworkService({ dns, caFile: tls.certFile });
  c = await client(svc.url);
}, 60_000);

afterAll(async () => {
  for (const res of stalled) res.end();
  await svc?.stop();
  await Promise.all([media && closeServer(media), loopback && closeServer(loopback), receiver?.close()]);
  cleanup(dir);
  if (svc) cleanup(svc.dataDir);
});

let downloaded: string;

describe('media_source', () => {
  it('a good download answers uploaded, stores the file, and its job completes', async () => {
    const r = await create({ language: 'en', media_source: mediaUrl('media.test.example', '/speech.wav') });
    expect(r.status, r.text).toBe(200);
    expect(r.body.result).toMatchObject({ status: 'uploaded', filename: 'speech.wav', media_type: 'audio/wav', error: null });
    downloaded = r.body.result.session_id;
    const stored = join(svc.dataDir, 'media', downloaded, 'source.wav');
    expect(readFileSync(stored).equals(wav)).toBe(true);

    const s = await sessionDone(c, downloaded);
    expect(s.status, s.error ?? '').toBe('completed');
    expect(s.duration).toBeGreaterThan(8);
    expect(transitionsOf(svc.dataDir, 'session', downloaded).map((t) => t.step)).toEqual(['>uploaded', 'uploaded>queued', 'queued>processing', 'processing>completed']);
    const docs = await c.json('documents.list', `${LEGACY}/${downloaded}/document?include_content=true`);
    const words = transcriptOf(docOf(docs.body.result, 'document')).segments.flatMap((x) => x.words.map((w) => w.text));
    expect(KEY_WORDS.filter((k) => words.includes(k)).length).toBeGreaterThanOrEqual(5);
    // Without punctuation the engine's words are left as they are: lowercase, no full stops.
    expect(words.filter((w: string) => /[.A-Z]/.test(w))).toEqual([]);
  });

  it('refuses a redirect to 127.0.0.1, "localhost.", and names resolving to a private address; nothing is left behind', async () => {
    const before = (await c.json('sessions.list', `${LEGACY}?limit=100`)).body.total_results;
    const hitsBefore = mediaHits.length;

    const redirect = await create({ language: 'en', media_source: mediaUrl('media.test.example', '/to-loopback') });
    expect(redirect.status).toBe(422);
    expect(errorOf(redirect).error).toMatch(/^media_source refused: .*127\.0\.0\.1.*private, loopback/);
    expect(mediaHits.slice(hitsBefore)).toEqual(['/to-loopback']); // the first hop was made, the second refused
    expect(loopbackHits).toBe(0);

    const cases: [string, RegExp][] = [
      [mediaUrl('localhost.', '/speech.wav'), /the host localhost\. is not allowed/],
      [mediaUrl('LOCALHOST.', '/speech.wav'), /is not allowed/],
      [mediaUrl('private.test.example', '/speech.wav'), /private\.test\.example is on this computer or a private network.*resolves to a private/],
      [mediaUrl('mixed.test.example', '/speech.wav'), /mixed\.test\.example is on this computer or a private network.*resolves to a private/],
      [mediaUrl('unknown.test.example', '/speech.wav'), /does not resolve/],
      [`http://127.0.0.1:${loopbackPort}/speech.wav`, /private, loopback/],
    ];
    for (const [source, why] of cases) {
      const r = await create({ language: 'en', media_source: source });
      expect(r.status, source).toBe(422);
      expect(errorOf(r).error, source).toMatch(why);
    }
    expect(mediaHits.slice(hitsBefore)).toEqual(['/to-loopback']);
    expect(loopbackHits).toBe(0);
    expect((await c.json('sessions.list', `${LEGACY}?limit=100`)).body.total_results).toBe(before);
  });
});

describe('media_source with a speech engine', () => {
  it('queues its job on the engine the request names, and refuses one not installed (or without media_source) before any download', async () => {
    const hitsBefore = mediaHits.length;
    const missing = await create({ language: 'en', media_source: mediaUrl('media.test.example', '/speech.wav'), speech_engine: 'whisper:large-v3' });
    expect(missing.status).toBe(422);
    expect(errorOf(missing).error).toMatch(/speech_engine: "whisper:large-v3" is not installed here \(installed: pocketsphinx\)/);
    const alone = await create({ language: 'en', speech_engine: 'pocketsphinx' });
    expect(alone.status).toBe(422);
    expect(JSON.stringify(errorOf(alone))).toMatch(/speech_engine goes with media_source/);
    expect(mediaHits.length).toBe(hitsBefore);

    const r = await create({ language: 'en', media_source: mediaUrl('media.test.example', '/speech.wav'), speech_engine: 'pocketsphinx' });
    expect(r.status, r.text).toBe(200);
    const id = r.body.result.session_id;
    const params = readServiceDb(svc.dataDir, (db) => (db.prepare('SELECT j.params FROM jobs j JOIN sessions s ON s.id = j.session_pk WHERE s.session_id = ?').get(id) as { params: string }).params);
    expect(JSON.parse(params)).toMatchObject({ language: 'en', speechEngine: 'pocketsphinx' });
    expect((await sessionDone(c, id)).status).toBe('completed');
    const docs = await c.json('documents.list', `${LEGACY}/${id}/document?include_content=true`);
    expect(bodyOf(docOf(docs.body.result, 'document')).metadata.engine).toBe('pocketsphinx');
  });
});

describe('legacy create with every key', () => {
  it('stores and uses each one: meta_data comes back, punctuation shapes the transcript, the callback carries the headers', async () => {
    const r = await create({
      language: 'en',
      webhook_url: `https://hooks.test.example:${receiver.port}/legacy/every-key`,
      webhook_method: 'PUT',
      webhook_headers: ['X-Ticket: T-42'],
      keep_source: true,
      media_source: mediaUrl('media.test.example', '/speech.wav'),
      punctuation: true,
      meta_data: { customer: 'acme', ticket: 'T-42' },
      session_mode: 'decode',
      diarization: true,
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.result.status).toBe('uploaded');
    const sid = r.body.result.session_id;
    const s = await sessionDone(c, sid);
    expect(s.status, s.error ?? '').toBe('completed');
    expect(s).toMatchObject({ language: 'en', keep_media: true, diarization: true, session_mode: 'decode', meta_data: { customer: 'acme', ticket: 'T-42' } });
    const kept = await fetch(s.media_url);
    expect(kept.headers.get('content-type')).toBe('audio/mpeg');

    const docs = await c.json('documents.list', `${LEGACY}/${sid}/document?include_content=true`);
    const transcript = docOf(docs.body.result, 'document');
    const t = must(transcript.document, 'the transcript body');
    expect(t.metadata.punctuation).toMatchObject({ requested: true });
    expect(t.metadata.diarization).toMatchObject({ requested: true, available: true, method: 'mfcc-bic-clr' });
    const segments = transcriptOf(transcript).segments;
    expect(segments.length).toBeGreaterThan(0);
    for (const seg of segments) {
      expect(seg.words[0].text).toMatch(/^[A-Z]/);
      expect(must(seg.words.at(-1), 'the last word').text).toMatch(/\.$/);
    }

    await until('the legacy callback', async () => receiver.on('/legacy/every-key').length > 0, 20_000);
    const hit = receiver.on('/legacy/every-key')[0];
    expect(hit.method).toBe('PUT');
    expect(hit.headers['x-ticket']).toBe('T-42');
    expect(hit.headers['x-svc-session']).toBe(sid);
    expect(JSON.parse(hit.body)).toEqual({ session_id: sid, status: 'completed', meta_data: { customer: 'acme', ticket: 'T-42' } });
  });
});

describe('restart during a download', () => {
  it('kill -9 mid-download: at the next start the session fails with a sentence; a stored but unqueued download is queued', async () => {
    const pending = create({ language: 'en', media_source: mediaUrl('media.test.example', '/slow.wav') }).catch(() => null);
    const sid = await until('the download in progress', async () => {
      const list = await c.json('sessions.list', `${LEGACY}?q=uploaded&limit=100`);
      return list.body.result.find((x) => x.status === 'uploaded')?.session_id;
    }, 20_000, 100);
    await until('bytes on disk', async () => existsSync(join(svc.dataDir, 'media', sid, 'download.tmp')), 10_000, 50);
    await svc.kill();
    await pending;

    // The other way a crash can strand a session in `uploaded`: the download was stored, the job not yet queued.
    const db = new Database(join(svc.dataDir, 'service.db'));
    db.prepare("UPDATE sessions SET status = 'uploaded' WHERE session_id = ?").run(downloaded);
    db.close();

    svc = await startTestNetworkService({ dns, dataDir: svc.dataDir });
    c = await client(svc.url, c.token);
    const failed = (await c.json('sessions.get', `${LEGACY}/${sid}`)).body.result;
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('The media_source download was interrupted because the service stopped; create the session again.');
    expect(existsSync(join(svc.dataDir, 'media', sid, 'download.tmp'))).toBe(false);
    expect(transitionsOf(svc.dataDir, 'session', sid).map((t) => t.step)).toEqual(['>uploaded', 'uploaded>failed']);

    const requeued = await sessionDone(c, downloaded);
    expect(requeued.status).toBe('completed');
    const steps = transitionsOf(svc.dataDir, 'session', downloaded);
    expect(steps.slice(-3).map((t) => t.step)).toEqual(['uploaded>queued', 'queued>processing', 'processing>completed']);
    expect(steps.at(-3)!.reason).toMatch(/restarted after the media_source download/);
  }, 120_000);
});
