/**
 * The update notice in real Chromium: browser mode checks a local feed (S2T_UPDATE_FEED) with
 * electron-updater's own classes, as the installed app checks its own; the notice says what is
 * new, downloads on the person's click and then offers the restart. Then a look, light and dark.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { startApp } from '../helpers/app';
import { appAndBrowserPerFile, shootLooks, signIn } from '../helpers/ui';

const SHOTS = '/tmp/shots/remainders';
const build = randomBytes(2 * 1024 * 1024);
const sha512 = createHash('sha512').update(build).digest('base64');
const yml = ['version: 99.0.0', 'files:', '  - url: s2t-desktop_99.0.0_amd64.deb', `    sha512: ${sha512}`, `    size: ${build.length}`, 'path: s2t-desktop_99.0.0_amd64.deb', `sha512: ${sha512}`, "releaseDate: '2026-11-20T10:00:00.000Z'", 'releaseNotes: "Captions follow their transcript.\\nShare links can be revoked."', ''].join('\n');

let feed: Server;
const run = appAndBrowserPerFile(async () => {
  feed = createServer((req, res) => {
    if (req.url?.split('?')[0].endsWith('.yml')) return void res.writeHead(200, { 'content-type': 'text/yaml' }).end(yml);
    if (req.url?.endsWith('.deb')) return void res.writeHead(200, { 'content-length': build.length }).end(build);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => feed.listen(0, '127.0.0.1', () => r()));
  return startApp({ env: { S2T_UPDATE_FEED: `http://127.0.0.1:${(feed.address() as AddressInfo).port}/desktop/linux/x64` } });
});
let page: Page;
afterAll(() => new Promise<void>((r) => (feed ? feed.close(() => r()) : r())));

const shots = (name: string) => shootLooks(page, SHOTS, name);

it('says a new version is there with what is new, downloads it on a click, then offers the restart', async () => {
  page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await signIn(page, await run.app.newUrl());
  const notice = page.getByRole('status', { name: 'Update' });
  await expect.poll(() => notice.textContent(), { timeout: 20_000 }).toContain('S2T Desktop 99.0.0 is available.');
  await notice.getByText('What’s new').click();
  expect(await notice.textContent()).toContain('Share links can be revoked.');
  await shots('update-available');
  await notice.getByRole('button', { name: 'Download' }).click();
  await expect.poll(() => notice.textContent(), { timeout: 30_000 }).toContain('S2T Desktop 99.0.0 is downloaded.');
  expect(await notice.getByRole('button', { name: 'Restart and install' }).count()).toBe(1);
  await shots('update-ready');
  await notice.getByRole('button', { name: 'Later' }).click();
  await expect.poll(() => notice.count()).toBe(0);
}, 90_000);
