/**
 * `npm run tools:fetch` against a local HTTP server standing in for the publisher: a build whose
 * SHA-256 matches the published list is unpacked into the tools folder; one that does not is
 * removed and nothing is put in place.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../../helpers/service';

const dir = tempDir('s2t-fetch-tools-');
const top = 'ffmpeg-n8.1-latest-linux64-lgpl-8.1';
let server: Server;
let base = '';
let archive: Buffer;
let checksums = '';

beforeAll(async () => {
  const src = join(dir, 'src');
  mkdirSync(join(src, top, 'bin'), { recursive: true });
  for (const tool of ['ffmpeg', 'ffprobe']) {
    writeFileSync(join(src, top, 'bin', tool), `#!/bin/sh\necho "${tool} version 8.1"\n`);
    chmodSync(join(src, top, 'bin', tool), 0o755);
  }
  writeFileSync(join(src, top, 'LICENSE.txt'), 'GNU LESSER GENERAL PUBLIC LICENSE\n');
  execFileSync('tar', ['-cJf', join(dir, `${top}.tar.xz`), '-C', src, top]);
  archive = readFileSync(join(dir, `${top}.tar.xz`));
  checksums = `${'0'.repeat(64)}  other-build.zip\n${createHash('sha256').update(archive).digest('hex')}  ${top}.tar.xz\n`;
  server = createServer((req, res) => {
    if (req.url === `/${top}.tar.xz`) res.end(archive);
    else if (req.url === '/checksums.sha256') res.end(checksums);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** Runs the script as its own process (the server answering it lives in this one, so not spawnSync). */
function fetchTools(out: string): Promise<{ status: number | null; stderr: string }> {
  const manifest = join(dir, 'tools.json');
  const members = { ffmpeg: `${top}/bin/ffmpeg`, ffprobe: `${top}/bin/ffprobe`, 'LICENSE.txt': `${top}/LICENSE.txt` };
  writeFileSync(manifest, JSON.stringify({ version: '8.1', licence: 'LGPL-2.1-or-later', targets: { 'linux-x64': { url: `${base}/${top}.tar.xz`, checksums: `${base}/checksums.sha256`, members } } }));
  const args = [join(ROOT, 'scripts/fetch-tools.mjs'), '--manifest', manifest, '--target', 'linux-x64', '--out', out];
  return new Promise((resolve) => {
    execFile(process.execPath, args, { encoding: 'utf8' }, (err, _stdout, stderr) => resolve({ status: err ? ((err.code as number | undefined) ?? 1) : 0, stderr }));
  });
}

describe('tools:fetch', () => {
  it('unpacks a build whose SHA-256 is the published one, and records where it came from', async () => {
    const out = join(dir, 'good');
    const r = await fetchTools(out);
    expect(r.status, r.stderr).toBe(0);
    expect(execFileSync(join(out, 'ffmpeg'), { encoding: 'utf8' })).toContain('ffmpeg version 8.1');
    expect(statSync(join(out, 'ffprobe')).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(out, 'LICENSE.txt'), 'utf8')).toContain('LESSER');
    const source = JSON.parse(readFileSync(join(out, 'SOURCE.json'), 'utf8'));
    expect(source).toMatchObject({ version: '8.1', url: `${base}/${top}.tar.xz`, sha256: createHash('sha256').update(archive).digest('hex') });
  });

  it('refuses a build whose SHA-256 differs from the published one, and puts nothing in place', async () => {
    const good = checksums;
    checksums = `${'a'.repeat(64)}  ${top}.tar.xz\n`;
    try {
      const out = join(dir, 'bad');
      const r = await fetchTools(out);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/is not the published a{64}; removed/);
      expect(existsSync(out)).toBe(false);
    } finally {
      checksums = good;
    }
  });
});
