/**
 * The walking skeleton end to end: sessions created through the local service over HTTP appear in
 * the app's session list in real Chromium after signing in with the demo account.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, LOCAL_DEMO, startApp, type RunningApp } from '../helpers/app';
import { speechWav } from '../helpers/speech';
import { ROOT } from '../helpers/service';

let app: RunningApp;
let browser: Browser;
const names = ['board-meeting.wav', 'customer-interview.wav', 'podcast-episode-12.wav'];

async function createSessions(serviceUrl: string): Promise<void> {
  const login = await fetch(`${serviceUrl}/api/v3/auth/login?login_type=token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: LOCAL_DEMO.email, password: LOCAL_DEMO.password }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  const token = await fetch(`${serviceUrl}/api/v3/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'e2e', type: 'batch', years_valid: 1 }),
  });
  expect(token.ok).toBe(true);
  const key = ((await token.json()) as { token_value: string }).token_value;
  const wav = readFileSync(await speechWav('hello from the end to end test'));
  for (const name of names) {
    const created = await fetch(`${serviceUrl}/api/v3/speech-to-text/session`, {
      method: 'POST',
      headers: { 'x-svc-s2t-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ language: 'en' }),
    });
    expect(created.ok).toBe(true);
    const { result } = (await created.json()) as { result: { session_id: string } };
    const put = await fetch(`${serviceUrl}/api/v3/speech-to-text/session/${result.session_id}`, {
      method: 'PUT',
      headers: { 'x-svc-s2t-key': key, 'x-filename': name, 'content-type': 'audio/wav' },
      body: wav,
    });
    expect(put.ok).toBe(true);
  }
}

beforeAll(async () => {
  app = await startApp();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('browser mode', () => {
  it('signs in with the demo account and lists the sessions made through the service', async () => {
    await createSessions(app.serviceUrl);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(app.url);
    await page.getByLabel('E-mail').fill(LOCAL_DEMO.email);
    await page.getByLabel('Password').fill(LOCAL_DEMO.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const list = page.getByRole('list', { name: 'Sessions' });
    for (const name of names) await expect.poll(() => list.getByText(name).count(), { timeout: 30_000 }).toBe(1);
    mkdirSync(join(ROOT, 'test-results'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-results/e2e-sessions.png') });
  });

  it('refuses a page opened without the per-run token', async () => {
    const page = await browser.newPage();
    await page.goto(app.url.replace(/#token=.*$/, ''));
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/address printed by S2T Desktop/);
  });
});
