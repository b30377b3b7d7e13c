/**
 * Updates against a local server that publishes a latest.yml and a build, through electron-updater's
 * own classes (its .deb updater, with a Node HTTP executor and an app adapter of plain values):
 * the new version's notes, a download with progress, a file whose SHA-512 differs refused, and a
 * server that cannot be reached a quiet notice.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appAdapter } from '../../../main/updates/app-adapter';
import { nodeUpdater } from '../../../main/updates/node-updater';
import { createUpdates, type UpdateState } from '../../../main/updates/updates';

const build = randomBytes(3 * 1024 * 1024);
const sha512 = (b: Buffer) => createHash('sha512').update(b).digest('base64');
let served: { yml: string; file: Buffer };
let server: Server;
let feed: string;

const latestYml = (version: string, sha: string) =>
  [`version: ${version}`, 'files:', `  - url: s2t-desktop_${version}_amd64.deb`, `    sha512: ${sha}`, `    size: ${build.length}`, `path: s2t-desktop_${version}_amd64.deb`, `sha512: ${sha}`, "releaseDate: '2026-11-20T10:00:00.000Z'", 'releaseNotes: "<p>Captions follow their transcript.</p>"', ''].join('\n');

beforeAll(async () => {
  server = createServer((req, res) => {
    // electron-updater asks for latest-linux.yml on Linux (latest.yml on Windows, latest-mac.yml on macOS).
    if (req.url?.split('?')[0].endsWith('.yml')) return void res.writeHead(200, { 'content-type': 'text/yaml' }).end(served.yml);
    if (req.url?.endsWith('.deb')) return void res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': served.file.length }).end(served.file);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  feed = `http://127.0.0.1:${(server.address() as AddressInfo).port}/desktop/linux/x64`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function updatesAt(url: string) {
  const dir = mkdtempSync(join(tmpdir(), 's2t-updates-'));
  // What electron-builder writes into the installed app's resources.
  writeFileSync(join(dir, 'app-update.yml'), `provider: generic\nurl: ${url}\nupdaterCacheDirName: s2t-desktop-updater\n`);
  const app = appAdapter({ version: '1.0.0', name: 'S2T Desktop', isPackaged: true, appUpdateConfigPath: join(dir, 'app-update.yml'), userDataPath: dir, cachePath: join(dir, 'cache') });
  const updates = createUpdates(nodeUpdater(url, app));
  const seen: UpdateState[] = [];
  updates.onChange((s) => seen.push(s));
  return { updates, seen, cacheDir: join(dir, 'cache', 's2t-desktop-updater') };
}

it('finds the new version with its notes, downloads it with progress, and waits for the person to install', async () => {
  served = { yml: latestYml('1.1.0', sha512(build)), file: build };
  const { updates, seen, cacheDir } = updatesAt(feed);
  expect(await updates.check()).toEqual({ state: 'available', version: '1.1.0', notes: 'Captions follow their transcript.' });
  expect(existsSync(cacheDir) && readdirSync(cacheDir, { recursive: true }).some((f) => String(f).endsWith('.deb'))).toBe(false);
  const done = await updates.download();
  expect(done).toEqual({ state: 'ready', version: '1.1.0', notes: 'Captions follow their transcript.' });
  const progress = seen.filter((s) => s.state === 'downloading');
  expect(progress.length).toBeGreaterThan(0);
  expect(progress.at(-1)).toMatchObject({ total: build.length });
  expect(existsSync(join(cacheDir, 'pending'))).toBe(true);
});

it('says so when the app is current', async () => {
  served = { yml: latestYml('1.0.0', sha512(build)), file: build };
  expect(await updatesAt(feed).updates.check()).toEqual({ state: 'current', version: '1.0.0' });
});

it('refuses a build whose SHA-512 differs from latest.yml', async () => {
  served = { yml: latestYml('1.2.0', sha512(randomBytes(64))), file: build };
  const { updates, cacheDir } = updatesAt(feed);
  expect((await updates.check()).state).toBe('available');
  const after = await updates.download();
  expect(after).toEqual({ state: 'failed', message: 'The downloaded update did not match its published checksum and was discarded.' });
  const kept = existsSync(cacheDir) ? readdirSync(cacheDir, { recursive: true }).filter((f) => String(f).endsWith('.deb')) : [];
  expect(kept).toEqual([]);
});

it('makes a failed check a quiet notice', async () => {
  const { updates } = updatesAt('http://127.0.0.1:1/desktop/linux/x64');
  expect(await updates.check()).toEqual({ state: 'failed', message: 'Could not check for updates right now; S2T Desktop will try again later.' });
});
