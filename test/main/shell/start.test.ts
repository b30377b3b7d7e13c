/** `npm start` where Electron cannot start: one line says so, then browser mode serves the app. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { admit, startApp, type RunningApp } from '../../helpers/app';
import { ROOT } from '../../helpers/service';

/** Whether the electron package's binary is on this machine (npm install downloads it where it can). */
function electronInstalled(): boolean {
  const dir = join(ROOT, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  return existsSync(pathFile) && existsSync(join(dir, 'dist', readFileSync(pathFile, 'utf8').trim()));
}

let app: RunningApp;
beforeAll(async () => {
  // No display either way, so this holds on a developer's desktop too.
  app = await startApp({ entry: 'scripts/start.mjs', env: { DISPLAY: '', WAYLAND_DISPLAY: '' } });
});
afterAll(() => app?.stop());

describe('npm start without Electron', () => {
  it('says why in one line, then prints the browser-mode URL, which serves the app', async () => {
    expect(app.lines[0]).toMatch(/^Electron cannot start here \(.+\); serving browser mode instead\.$/);
    // The reason is the true one: a missing binary is named as such (not the "fetch failed" of a download tried offline).
    expect(app.lines[0]).toContain(electronInstalled() ? '(no display)' : 'the Electron binary is missing from');
    expect(app.lines[1]).toMatch(/^S2T Desktop \(browser mode\): http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{20,}$/);
    const page = await fetch(app.url.replace(/#.*$/, ''));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
  });

  it('says the address opens the app once, and prints a fresh one for each Enter, each admitting one page once', async () => {
    expect(app.lines[2]).toBe('This address opens the app in one browser, once. Press Enter here for a fresh one.');
    const fresh = await app.newUrl();
    expect(fresh).not.toBe(app.url);
    expect(new URL(fresh).origin).toBe(new URL(app.url).origin);
    await admit(fresh);
    await expect(admit(fresh)).rejects.toThrow(/401/);
    // The first printed address was never opened: it still admits.
    await admit(app.url);
  });
});
