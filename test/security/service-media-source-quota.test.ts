/**
 * media_source downloads count against the organization's storage quota, as uploads do: a
 * download that would pass the room left is refused with the uploads' 413 (declared by its
 * Content-Length, or found as it streams), and neither the session nor a partial file stays.
 * Over real HTTP, with the service on a test network (fake DNS; only our media server exempt from
 * the private-address rule) and a quota of 1 MiB.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopAndRemove, tempDir, type RunningService } from '../helpers/service';
import { wavHeader } from '../main/watch/helpers';
import { codedError } from '../service/answers';
import { closeServer, FakeDns, listenOnTestAddress, startTestNetworkService, TEST_ADDRESS } from '../service/work/test-network';
import { client, sessionDone, type Client } from '../service/work/helpers';

const LEGACY = '/api/v3/speech-to-text/session';
const KB = 1024;
/** A WAV of silence `bytes` long in all: media the service would store if it had room. */
const silence = (bytes: number) => Buffer.concat([wavHeader(bytes - 44), Buffer.alloc(bytes - 44)]);

let dir: string;
let svc: RunningService;
let c: Client;
let media: Server;
let port: number;

const create = (path: string) => c.json('sessions.create', LEGACY, { language: 'en', media_source: `http://media.test.example:${port}${path}` }, { 'x-svc-s2t-key': c.batchKey });
const sessionCount = async () => (await c.json('sessions.list', `${LEGACY}?limit=100`)).body.total_results;
const mediaDirs = () => (existsSync(join(svc.dataDir, 'media')) ? readdirSync(join(svc.dataDir, 'media')).sort() : []);

beforeAll(async () => {
  dir = tempDir('s2t-media-quota-');
  media = createServer((req, res) => {
    res.on('error', () => {}); // the service hangs up on a refused download
    if (req.url === '/small.wav') {
      const body = silence(300 * KB);
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': body.length }).end(body);
    } else if (req.url === '/declared.wav') {
      // Says up front that it is twice the whole quota.
      const body = silence(2048 * KB);
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': body.length }).end(body);
    } else if (req.url === '/streamed.wav') {
      // No length: 900 KB, which an empty 1 MiB quota holds, but not what is left beside small.wav.
      res.writeHead(200, { 'content-type': 'audio/wav' });
      const body = silence(900 * KB);
      for (let at = 0; at < body.length; at += 64 * KB) res.write(body.subarray(at, at + 64 * KB));
      res.end();
    } else res.writeHead(404).end();
  });
  port = await listenOnTestAddress(media);
  const dns = new FakeDns(dir);
  dns.set('media.test.example', TEST_ADDRESS);
  // 1 GiB / 1024 = 1 MiB of storage for the organization.
  svc = await startTestNetworkService({ dns, args: ['--org-storage-gb', String(1 / 1024)] });
  c = await client(svc.url);
}, 60_000);

afterAll(async () => {
  await stopAndRemove(svc, dir);
  if (media) await closeServer(media);
});

function expectStorageRefusal(r: Awaited<ReturnType<typeof create>>): void {
  expect(r.status, r.text).toBe(413);
  expect(codedError(r)).toMatchObject({ code: 'storage_quota_exceeded' });
  expect(codedError(r).message).toMatch(/^Your organization stores \d+ KB on this service, and this upload would pass its limit of 1 MB \(--org-storage-gb\)\. Delete sessions/);
}

describe('media_source and the storage quota', () => {
  it('refuses a download whose declared length passes the room, and keeps no session and no file', async () => {
    const before = await sessionCount();
    expectStorageRefusal(await create('/declared.wav'));
    expect(await sessionCount()).toBe(before);
    expect(mediaDirs()).toEqual([]);
  });

  it('counts what is stored: a streamed download that fits the quota but not the room left is cut off and removed', async () => {
    const small = await create('/small.wav');
    expect(small.status, small.text).toBe(200);
    const kept = small.body.result.session_id;
    // Its job may add a waveform and a kept copy: let it end, so the room left stays put.
    await sessionDone(c, kept);
    expect(mediaDirs()).toEqual([kept]);

    const before = await sessionCount();
    expectStorageRefusal(await create('/streamed.wav'));
    expect(await sessionCount()).toBe(before);
    // The partial download went with its session's folder.
    expect(mediaDirs()).toEqual([kept]);
  }, 120_000);
});
