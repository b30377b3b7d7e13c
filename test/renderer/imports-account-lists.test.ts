/**
 * Glossary and custom model in the New transcription dialog, in real Chromium on the browser-mode
 * app and its embedded service: hidden while the account has none; once the account has a
 * glossary (made through the service's API) and a custom model (a row in the service's own data:
 * nothing in the service creates those), both are offered by name, and the chosen ids reach the
 * service's job with the recording.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { LOCAL_DEMO } from '../helpers/app';
import { serviceLogin } from '../helpers/service';
import { speechWav } from '../helpers/speech';
import { appAndBrowserPerFile, signIn as signInAt } from '../helpers/ui';

const SHOTS = '/tmp/shots/imports-finish';

const run = appAndBrowserPerFile();
beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

async function signIn(page: Page): Promise<void> {
  await signInAt(page, await run.app.newUrl(), page.getByRole('banner').getByRole('button', { name: 'New transcription' }));
}

it('offers glossary and custom model only when the account has them, and sends the chosen ones', async () => {
  const page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await signIn(page);
  const dialog = page.getByRole('dialog', { name: 'New transcription' });
  const open = async () => {
    await page.getByRole('banner').getByRole('button', { name: 'New transcription' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await expect.poll(() => dialog.getByLabel('Language').locator('option', { hasText: 'English (United States)' }).count(), { timeout: 20_000 }).toBe(1);
  };

  // None yet: main answered the dialog's read (it keeps the lists it read for offline use), and nothing is offered.
  const cache = join(run.app.dataDir, 'imports', 'account-lists.json');
  await open();
  await expect.poll(() => existsSync(cache), { timeout: 20_000 }).toBe(true);
  await expect.poll(() => dialog.getByRole('checkbox', { name: 'Keep the media on the service' }).count()).toBe(1);
  expect(await dialog.getByLabel('Glossary').count()).toBe(0);
  expect(await dialog.getByLabel('Custom model').count()).toBe(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(() => dialog.count()).toBe(0);

  // The account gets a glossary and a custom model.
  const token = await serviceLogin(run.app.serviceUrl, LOCAL_DEMO);
  const made = await fetch(`${run.app.serviceUrl}/api/v4/glossaries`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Product names', source_language: 'en', entries: [{ source: 'ess two tee', target: 'S2T' }] }),
  });
  expect(made.status).toBe(201);
  const glossaryId = ((await made.json()) as { result: { id: number } }).result.id;
  const db = new Database(join(run.app.dataDir, 'local-service', 'service.db'));
  db.pragma('busy_timeout = 5000');
  const orgId = (db.prepare('SELECT org_id FROM users WHERE email = ?').get(LOCAL_DEMO.email) as { org_id: number }).org_id;
  const modelId = Number(db.prepare('INSERT INTO custom_models (org_id, name, language, status, created_at) VALUES (?, ?, ?, ?, ?)').run(orgId, 'Legal', 'en-US', 'ready', new Date().toISOString()).lastInsertRowid);

  await open();
  const glossary = dialog.getByLabel('Glossary');
  await expect.poll(() => glossary.count(), { timeout: 20_000 }).toBe(1);
  expect(await glossary.inputValue()).toBe('');
  await glossary.selectOption({ label: 'Product names (en)' });
  await dialog.getByLabel('Custom model').selectOption({ label: 'Legal (en-US)' });
  await dialog.getByLabel('Language').selectOption({ label: 'English (United States)' });
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'Choose files…' }).click()]);
  await chooser.setFiles(await speechWav('the product names are in the glossary'));
  await page.screenshot({ path: join(SHOTS, 'dialog-account-lists-1280x800.png') });
  await page.setViewportSize({ width: 800, height: 600 });
  await page.screenshot({ path: join(SHOTS, 'dialog-account-lists-800x600.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(SHOTS, 'dialog-account-lists-dark-1280x800.png') });
  await page.emulateMedia({ colorScheme: 'light' });
  await dialog.getByRole('button', { name: 'Transcribe' }).click();
  await expect.poll(() => dialog.count(), { timeout: 60_000 }).toBe(0);

  const uploads = page.getByRole('list', { name: 'Uploads' });
  await expect.poll(async () => (await uploads.allTextContents()).join(' '), { timeout: 240_000, interval: 500 }).toMatch(/Done|Failed/);
  expect((await uploads.allTextContents()).join(' ')).toContain('Done');
  // The service's job carries the ids chosen (it checked that both are the account's).
  const params = JSON.parse((db.prepare('SELECT params FROM jobs ORDER BY rowid DESC LIMIT 1').get() as { params: string }).params) as Record<string, unknown>;
  db.close();
  expect(params).toMatchObject({ glossaryId, customModelId: modelId });
  await page.close();
}, 300_000);
