/**
 * tus 1.0 against the running service: a 3 GB upload (sparse file with random blocks, streamed by
 * tus-js-client) interrupted halfway and resumed, bytes equal by SHA-1, the service's peak RSS
 * under 300 MB; the protocol's extensions one by one with raw requests; the 64 GiB limit; and the
 * expiry clean-up, which removes unfinished uploads past 24 h and keeps finished ones.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync, openSync, closeSync, writeSync, ftruncateSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TUS_PATH } from '../../../common/api';
import { startService, stopAndRemove, tempDir, type RunningService } from '../../helpers/service';
import { readServiceDb } from '../../helpers/service-db';
import { client, otherOrganization, until, type Client } from './helpers';

const SIZE = 3 * 1024 ** 3;

let svc: RunningService;
let c: Client;
let dir: string;

beforeAll(async () => {
  dir = tempDir('s2t-work-tus-');
  // Room for the protocol's own 64 GiB limit under test (the organization's storage quota is 50 GB by default).
  svc = await startService({ args: ['--org-storage-gb', '128'] });
  c = await client(svc.url);
}, 60_000);

afterAll(() => stopAndRemove(svc, dir));

/** Whether two files hold the same bytes: cmp reads both in step, a fraction of the CPU of hashing 3 GB twice. */
function sameBytes(a: string, b: string): { same: boolean; said: string } {
  const r = spawnSync('cmp', [a, b], { encoding: 'utf8' });
  if (r.status === 2 || r.error) throw new Error(`cmp failed: ${r.stderr || r.error?.message}`);
  return { same: r.status === 0, said: r.stdout.trim() };
}

function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]) / 1024;
}

describe('tus', () => {
  it('uploads 3 GB, interrupted halfway and resumed; bytes match; the service grows by under 150 MB', async () => {
    const before = peakRssMb(svc.child.pid!);
    const path = join(dir, 'big.bin');
    const fd = openSync(path, 'w');
    ftruncateSync(fd, SIZE);
    for (const at of [0, SIZE / 2 - 512 * 1024, SIZE - 1024 * 1024]) writeSync(fd, randomBytes(1024 * 1024), 0, 1024 * 1024, at);
    closeSync(fd);
    const opts = { endpoint: `${svc.url}${TUS_PATH}`, headers: c.bearer, metadata: { filename: 'big.bin' }, uploadSize: SIZE, retryDelays: [] as number[] };

    let aborted = false;
    const t0 = Date.now();
    const url = await new Promise<string>((resolve, reject) => {
      const up: tus.Upload = new tus.Upload(createReadStream(path), {
        ...opts,
        onError: reject,
        onSuccess: () => reject(new Error('finished without interruption')),
        onProgress: (sent) => {
          if (!aborted && sent >= SIZE / 2) {
            aborted = true;
            void up.abort().then(() => resolve(up.url!));
          }
        },
      });
      up.start();
    });
    const head = await fetch(url, { method: 'HEAD', headers: { ...c.bearer, 'Tus-Resumable': '1.0.0' } });
    const offset = Number(head.headers.get('upload-offset'));
    console.log(`tus: interrupted at ${(offset / 1024 ** 3).toFixed(2)} GiB`);
    expect(offset).toBeGreaterThan(SIZE / 4);
    expect(offset).toBeLessThan(SIZE);

    await new Promise<void>((resolve, reject) => {
      const up = new tus.Upload(createReadStream(path), { ...opts, uploadUrl: url, onError: reject, onSuccess: () => resolve() });
      up.start();
    });
    console.log(`tus: 3 GiB uploaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const rss = peakRssMb(svc.child.pid!);
    console.log(`tus: service peak RSS (VmHWM) ${before.toFixed(0)} MB before, ${rss.toFixed(0)} MB after 3 GiB`);
    // The upload streams to disk: the service's peak memory moves by a buffer's worth, never by the file's.
    expect(rss - before).toBeLessThan(150);
    const fileId = url.split('/').pop()!;
    const stored = join(svc.dataDir, 'tus', fileId);
    expect(sameBytes(stored, path)).toEqual({ same: true, said: '' });
  }, 240_000);

  it('speaks the extensions: creation-with-upload, checksum (460 on mismatch), termination, expiration; needs auth and the owner', async () => {
    const opt = await fetch(`${svc.url}${TUS_PATH}`, { method: 'OPTIONS', headers: { 'Tus-Resumable': '1.0.0' } });
    expect(opt.status).toBe(204);
    const ext = opt.headers.get('tus-extension')!.split(',');
    for (const e of ['creation', 'creation-with-upload', 'termination', 'expiration', 'checksum']) expect(ext).toContain(e);
    expect(opt.headers.get('tus-checksum-algorithm')).toContain('sha1');

    const tusHeaders = { ...c.bearer, 'Tus-Resumable': '1.0.0' };
    expect((await fetch(`${svc.url}${TUS_PATH}`, { method: 'POST', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '4' } })).status).toBe(401);

    const body = Buffer.from('hello tus world!');
    const created = await fetch(`${svc.url}${TUS_PATH}`, {
      method: 'POST',
      headers: { ...tusHeaders, 'Upload-Length': String(body.length * 2), 'Content-Type': 'application/offset+octet-stream' },
      body,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('upload-offset')).toBe(String(body.length));
    expect(Date.parse(created.headers.get('upload-expires')!)).toBeGreaterThan(Date.now());
    const loc = new URL(created.headers.get('location')!, svc.url).href;

    const patch = (digest: string) =>
      fetch(loc, { method: 'PATCH', headers: { ...tusHeaders, 'Upload-Offset': String(body.length), 'Content-Type': 'application/offset+octet-stream', 'Upload-Checksum': `sha1 ${digest}` }, body });
    const wrong = await patch(createHash('sha1').update('something else').digest('base64'));
    expect(wrong.status).toBe(460);
    const afterWrong = await fetch(loc, { method: 'HEAD', headers: tusHeaders });
    expect(afterWrong.headers.get('upload-offset')).toBe(String(body.length));
    const bad = await fetch(loc, { method: 'PATCH', headers: { ...tusHeaders, 'Upload-Offset': String(body.length), 'Content-Type': 'application/offset+octet-stream', 'Upload-Checksum': 'crc32 AAAA' }, body });
    expect(bad.status).toBe(400);
    const right = await patch(createHash('sha1').update(body).digest('base64'));
    expect(right.status).toBe(204);
    expect(right.headers.get('upload-offset')).toBe(String(body.length * 2));
    expect(readFileSync(join(svc.dataDir, 'tus', loc.split('/').pop()!)).toString()).toBe('hello tus world!hello tus world!');

    const other = await otherOrganization(svc, 'tus-other@example.com', 'other-password-1');
    expect((await fetch(loc, { method: 'HEAD', headers: { ...other.bearer, 'Tus-Resumable': '1.0.0' } })).status).toBe(404);

    const del = await fetch(loc, { method: 'DELETE', headers: tusHeaders });
    expect(del.status).toBe(204);
    expect([404, 410]).toContain((await fetch(loc, { method: 'HEAD', headers: tusHeaders })).status);
  });

  it('takes an Upload-Length of exactly 64 GiB and refuses one byte more with 413', async () => {
    const tusHeaders = { ...c.bearer, 'Tus-Resumable': '1.0.0' };
    const over = await fetch(`${svc.url}${TUS_PATH}`, { method: 'POST', headers: { ...tusHeaders, 'Upload-Length': String(64 * 1024 ** 3 + 1) } });
    expect(over.status).toBe(413);
    const atLimit = await fetch(`${svc.url}${TUS_PATH}`, { method: 'POST', headers: { ...tusHeaders, 'Upload-Length': String(64 * 1024 ** 3) } });
    expect(atLimit.status).toBe(201);
    expect((await fetch(new URL(atLimit.headers.get('location')!, svc.url), { method: 'DELETE', headers: tusHeaders })).status).toBe(204);
  });

  it('the clean-up removes an unfinished upload past its expiry, file and record, and keeps finished and recent ones', async () => {
    const tusHeaders = { ...c.bearer, 'Tus-Resumable': '1.0.0' };
    const start = async (length: number, body: string) => {
      const r = await fetch(`${svc.url}${TUS_PATH}`, { method: 'POST', headers: { ...tusHeaders, 'Upload-Length': String(length), 'Content-Type': 'application/offset+octet-stream' }, body });
      expect(r.status).toBe(201);
      return new URL(r.headers.get('location')!, svc.url).href;
    };
    const expired = await start(100, 'ten bytes!');
    const finished = await start(10, 'ten bytes!');
    const recent = await start(100, 'ten bytes!');
    const file = (url: string) => join(svc.dataDir, 'tus', url.split('/').pop()!);

    // Backdate two uploads by 25 hours, as if the service had been off since then; restart runs the clean-up.
    await svc.stop();
    for (const url of [expired, finished]) {
      const info = JSON.parse(readFileSync(`${file(url)}.json`, 'utf8')) as { creation_date: string };
      info.creation_date = new Date(Date.now() - 25 * 3600_000).toISOString();
      writeFileSync(`${file(url)}.json`, JSON.stringify(info));
    }
    svc = await startService({ dataDir: svc.dataDir, args: ['--org-storage-gb', '128'] });
    const moved = (url: string) => url.replace(/^http:\/\/127\.0\.0\.1:\d+/, svc.url);

    await until('the clean-up', async () => !existsSync(file(expired)), 15_000, 100);
    expect(existsSync(`${file(expired)}.json`)).toBe(false);
    expect([404, 410]).toContain((await fetch(moved(expired), { method: 'HEAD', headers: tusHeaders })).status);
    const rows = readServiceDb(svc.dataDir, (db) => db.prepare("SELECT file_id FROM uploads WHERE via = 'tus'").all() as { file_id: string }[]).map((r) => r.file_id);
    expect(rows).not.toContain(expired.split('/').pop());

    for (const [url, offset] of [[finished, '10'], [recent, '10']] as const) {
      const head = await fetch(moved(url), { method: 'HEAD', headers: tusHeaders });
      expect(head.status, url).toBe(200);
      expect(head.headers.get('upload-offset')).toBe(offset);
      expect(readFileSync(file(url), 'utf8')).toBe('ten bytes!');
    }
  });
});
