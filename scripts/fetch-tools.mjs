#!/usr/bin/env node
// `npm run tools:fetch [-- --target linux-x64]`: puts the ffmpeg and ffprobe that the installed app
// carries into vendor/tools/<platform>-<arch>/ (electron-builder.yml ships that folder as
// resources/tools). The archive named in packaging/tools.json is checked against the SHA-256 its
// publisher lists beside it before anything is unpacked; a mismatch removes the download and fails.
// `npm run dist` runs it; installing or testing the project never does (npm registry only there).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const manifestFile = arg('manifest', join(root, 'packaging', 'tools.json'));
const target = arg('target', `${process.platform}-${process.arch}`);
const outDir = arg('out', join(root, 'vendor', 'tools', target));
const MAX_BYTES = 512 * 1024 * 1024;

function fail(message) {
  throw Object.assign(new Error(message), { expected: true });
}

process.on('uncaughtException', (err) => {
  console.error(`tools:fetch: ${err.expected ? err.message : err.stack}`);
  process.exit(1);
});

const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
const entry = manifest.targets?.[target];
if (!entry) fail(`packaging/tools.json names no build for ${target} (it has: ${Object.keys(manifest.targets ?? {}).join(', ')})`);

async function get(url) {
  const res = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(10 * 60_000) });
  if (!res.ok || !res.body) fail(`${url} answered ${res.status}`);
  return res;
}

/** The publisher's SHA-256 for the archive: a `<hex>  <name>` line naming it, or a lone hex digest. */
function expectedDigest(text, name) {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const named = lines.find((l) => l.split(/\s+\*?/).pop() === name);
  const digest = (named ?? (lines.length === 1 ? lines[0] : '')).split(/\s+/)[0].toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(digest)) fail(`the checksum list names no SHA-256 for ${name}`);
  return digest;
}

const name = basename(new URL(entry.url).pathname);
const expected = expectedDigest(await (await get(entry.checksums)).text(), name);
const work = mkdtempSync(join(tmpdir(), 's2t-tools-'));
try {
  const archive = join(work, name);
  const hash = createHash('sha256');
  let bytes = 0;
  const res = await get(entry.url);
  await pipeline(
    Readable.fromWeb(res.body),
    async function* (chunks) {
      for await (const chunk of chunks) {
        bytes += chunk.length;
        if (bytes > MAX_BYTES) fail(`${name} is larger than ${MAX_BYTES} bytes`);
        hash.update(chunk);
        yield chunk;
      }
    },
    createWriteStream(archive),
  );
  const actual = hash.digest('hex');
  if (actual !== expected) {
    rmSync(archive, { force: true });
    fail(`${name}: SHA-256 ${actual} is not the published ${expected}; removed`);
  }
  const unpacked = join(work, 'x');
  mkdirSync(unpacked);
  const unpack = name.endsWith('.zip') ? spawnSync('unzip', ['-q', archive, '-d', unpacked]) : spawnSync('tar', ['-xf', archive, '-C', unpacked]);
  if (unpack.status !== 0) fail(`could not unpack ${name}: ${unpack.stderr?.toString().trim() || unpack.error?.message}`);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const [file, member] of Object.entries(entry.members)) {
    const from = join(unpacked, member);
    if (!existsSync(from)) fail(`${name} has no ${member}`);
    copyFileSync(from, join(outDir, file));
    if (!file.endsWith('.txt')) chmodSync(join(outDir, file), 0o755);
  }
  const source = { version: manifest.version, licence: manifest.licence, url: entry.url, sha256: actual, fetched: new Date().toISOString() };
  writeFileSync(join(outDir, 'SOURCE.json'), `${JSON.stringify(source, null, 2)}\n`);
  console.log(`tools:fetch: ffmpeg ${manifest.version} for ${target} in ${outDir} (SHA-256 ${actual})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
