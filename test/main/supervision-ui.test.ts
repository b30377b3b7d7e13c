/**
 * The embedded service dies under the running app (browser mode, real Chromium): the badge says
 * the local service is restarting instead of "Offline", the app comes back online by itself, and
 * an edit saved just before the kill reaches the service after it. Quitting while a restart is
 * under way leaves no process behind.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, LOCAL_DEMO, startApp, type RunningApp } from '../helpers/app';
import { serviceLogin } from '../helpers/service';
import { seedService } from './helpers/seed';
import { processesFor } from './helpers/processes';

const serviceDir = (app: RunningApp) => join(app.dataDir, 'local-service');
const servicePid = (app: RunningApp) => processesFor(serviceDir(app)).filter((pid) => pid !== app.child.pid);

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function signIn(page: Page, app: RunningApp): Promise<void> {
  await page.goto(await app.newUrl());
  await page.getByLabel('E-mail').fill(LOCAL_DEMO.email);
  await page.getByLabel('Password').fill(LOCAL_DEMO.password);
  await page.getByRole('form', { name: 'Sign in' }).getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByTitle('Sync now').waitFor({ timeout: 60_000 });
}

/** Records, in the page, whether the badge ever said the service is restarting (it may be brief). */
function watchForRestarting(page: Page): Promise<void> {
  return page.evaluate(() => {
    const w = window as unknown as { sawRestarting: boolean };
    w.sawRestarting = false;
    new MutationObserver(() => {
      if (document.body.textContent?.includes('Restarting the local service…')) w.sawRestarting = true;
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

describe('embedded service supervision in the app', () => {
  it('shows the restart, comes back online, and sends an edit saved just before the kill', async () => {
    const app = await startApp();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      const seeded = seedService(serviceDir(app), { sessions: 1, email: LOCAL_DEMO.email, texts: () => ['the first words', 'the second part'] });
      const { sessionId, documentIds } = seeded.sessions[0];
      await signIn(page, app);
      const entry = page.locator('#sidebar').getByText('recording-0.wav', { exact: true });
      await expect
        .poll(async () => {
          await page.getByTitle('Sync now').click();
          return entry.count();
        }, { timeout: 60_000, interval: 1000 })
        .toBe(1);
      await entry.click();
      const firstRow = page.getByRole('list', { name: 'Transcript' }).locator(':scope > li').first();
      await firstRow.locator('.seg-text').waitFor({ timeout: 30_000 });

      await firstRow.locator('.seg-text').dblclick();
      await page.getByLabel('Segment text').fill('kept across the restart');
      await page.getByLabel('Segment text').press('Enter');
      // Ctrl+S saves from anywhere, also right after the edit.
      await watchForRestarting(page);
      await page.keyboard.press('Control+s');
      await expect.poll(() => page.getByText(/^Saved/).count(), { timeout: 30_000 }).toBe(1);
      const [pid] = servicePid(app);
      expect(pid).toBeGreaterThan(0);
      const killedAt = Date.now();
      process.kill(pid, 'SIGKILL');
      // A picture of the badge while it lasts, for a person to look at (not an assertion).
      await page.getByText('Restarting the local service…').waitFor({ timeout: 5000 }).then(() => page.screenshot({ path: '/tmp/shots/settings/restarting-1280x800.png', clip: { x: 0, y: 0, width: 1280, height: 120 } }), () => {});

      await expect.poll(() => page.evaluate(() => (window as unknown as { sawRestarting: boolean }).sawRestarting), { timeout: 30_000 }).toBe(true);
      const badge = page.getByTitle('Sync now');
      await expect.poll(async () => (await badge.count()) && (await badge.textContent()), { timeout: 60_000 }).toMatch(/Online/);
      // For the README: how long the app was without its service (not asserted; see npm run bench).
      process.stdout.write(`supervision: online again ${Date.now() - killedAt} ms after SIGKILL\n`);
      const [again] = servicePid(app);
      expect(again).not.toBe(pid);
      // The service has the edit, on the same address as before.
      const token = await serviceLogin(app.serviceUrl, LOCAL_DEMO);
      const text = async () => {
        const res = await fetch(`${app.serviceUrl}/api/v3/speech-to-text/session/${sessionId}/document/${documentIds[0]}`, { headers: { authorization: `Bearer ${token}` } });
        // The words' texts in order (the body keeps words, not one string).
        return [...JSON.stringify(await res.json()).matchAll(/"(?:text|word)":"([^"]*)"/g)].map((m) => m[1].trim()).join(' ');
      };
      await expect.poll(text, { timeout: 60_000, interval: 1000 }).toContain('kept across the restart');
      expect(await page.getByText(/to send/).count()).toBe(0);
    } finally {
      await page.close();
      await app.stop();
    }
  }, 240_000);

  it('quitting during a restart leaves no process behind', async () => {
    const app = await startApp();
    const dir = serviceDir(app);
    const [pid] = servicePid(app);
    process.kill(pid, 'SIGKILL');
    // The app is now starting the service again; stop it right away.
    await app.stop();
    expect(app.child.exitCode).toBe(0);
    expect(processesFor(dir)).toEqual([]);
  }, 120_000);
});
