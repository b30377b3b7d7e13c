/**
 * Renaming a session on its page, in real Chromium through the web bridge, the app on a local
 * service of the test's own (so it can be stopped): renamed while the service is down, the page's
 * heading and the list show the new name at once with the change waiting; once the service is back
 * it has the new name and nothing waits. An empty name is refused in the dialog.
 * Screenshots go to /tmp/shots/ui-rest/.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromium } from '../helpers/app';
import { DEMO, serviceLogin, startService, type RunningService } from '../helpers/service';
import { closeCloudRun, type CloudApp, shootLooks, startCloudApp, submitSignIn } from '../helpers/ui';
import { seedService } from '../main/helpers/seed';

const SHOTS = '/tmp/shots/ui-rest';
const OLD = 'zoom-recording-0412.wav';
const NEW = 'Budget review with the board';
let svc: RunningService;
let serviceDir: string;
let port: number;
let sessionId: string;
let app: CloudApp;
let browser: Browser;
let page: Page;

const row = (name: string) => page.getByRole('list', { name: 'Sessions' }).getByRole('button', { name: new RegExp(name.replace(/[.()]/g, '\\$&')) });
const syncNow = async () => {
  const button = page.getByTitle('Sync now');
  if (await button.count()) await button.click();
};
async function serviceName(): Promise<string> {
  const res = await fetch(`${svc.url}/api/v3/speech-to-text/session/${sessionId}`, { headers: { authorization: `Bearer ${await serviceLogin(svc.url, DEMO)}` } });
  return ((await res.json()) as { result: { filename: string } }).result.filename;
}
const shoot = (name: string) => shootLooks(page, SHOTS, name);

beforeAll(async () => {
  svc = await startService();
  serviceDir = svc.dataDir;
  port = Number(new URL(svc.url).port);
  sessionId = seedService(svc.dataDir, { email: DEMO.email, sessions: 1 }).sessions[0].sessionId;
  const db = new Database(join(svc.dataDir, 'service.db'));
  db.prepare('UPDATE sessions SET filename = ? WHERE session_id = ?').run(OLD, sessionId);
  db.close();
  app = await startCloudApp(svc.url);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => console.log('page error:', e.message));
  await page.goto(await app.newUrl());
  await submitSignIn(page, DEMO);
  await vi.waitFor(async () => expect(await row(OLD).count()).toBe(1), { timeout: 60_000, interval: 250 });
}, 120_000);

afterAll(() => closeCloudRun({ browser, app, svc, serviceDir }));

describe('renaming a session on its page', () => {
  it('offline: the heading and the list take the new name at once, and the service gets it when it is back', async () => {
    await row(OLD).click();
    await expect.poll(() => page.getByRole('heading', { level: 2, name: OLD }).count(), { timeout: 20_000 }).toBe(1);
    await svc.stop();
    try {
      await expect.poll(async () => (await syncNow(), page.locator('.sync-status .sync').textContent()), { timeout: 60_000, interval: 1000 }).toMatch(/Offline/);
      await page.locator('.session-title').getByRole('button', { name: 'Rename session…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Rename session' });
      await expect.poll(() => dialog.getByLabel('Name').inputValue()).toBe(OLD);
      await expect.poll(() => dialog.textContent()).toContain('the service gets the new name when it is reached again');
      await dialog.getByLabel('Name').fill(NEW);
      await shoot('session-rename-dialog');
      await dialog.getByRole('button', { name: 'Rename' }).click();
      await expect.poll(() => page.getByRole('heading', { level: 2, name: NEW }).count(), { timeout: 20_000 }).toBe(1);
      await expect.poll(() => row(NEW).textContent(), { timeout: 20_000 }).toContain('1 unsent');
      expect(await row(OLD).count()).toBe(0);
      await shoot('session-renamed-offline');
    } finally {
      svc = await startService({ dataDir: serviceDir, port });
    }
    await expect.poll(async () => (await syncNow(), serviceName()), { timeout: 60_000, interval: 1000 }).toBe(NEW);
    await expect.poll(async () => (await syncNow(), row(NEW).textContent()), { timeout: 30_000, interval: 1000 }).not.toContain('unsent');
    expect(await page.getByRole('heading', { level: 2, name: NEW }).count()).toBe(1);
  }, 150_000);

  it('an empty name is refused in the dialog, in words, and the name stays', async () => {
    await page.locator('.session-title').getByRole('button', { name: 'Rename session…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename session' });
    await dialog.getByLabel('Name').fill('   ');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('Give the session a name.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByRole('heading', { level: 2, name: NEW }).count()).toBe(1);
    expect(await serviceName()).toBe(NEW);
  });
});
