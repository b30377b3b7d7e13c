/**
 * The session list and the session page in real Chromium through the web bridge, the app on a
 * local service of the test's own (so it can be stopped): delete online, offline then online and
 * in bulk (each erased on the service); translate en -> es; summarize; share a link, copy it,
 * revoke it; and 10,000 sessions filled into the cache, sorted and filtered, the view the same
 * after a reload. Screenshots of the list and the page go to /tmp/shots/sessions/.
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromium } from '../helpers/app';
import { DEMO, serviceLogin, startService, type RunningService } from '../helpers/service';
import { closeCloudRun, type CloudApp, shootLooks, startCloudApp, submitSignIn } from '../helpers/ui';
import { seedService, type Seeded } from '../main/helpers/seed';

const SHOTS = '/tmp/shots/sessions';
let svc: RunningService;
let serviceDir: string;
let port: number;
let app: CloudApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let seeded: Seeded;

const SENTENCES = [
  'The board met on Monday to discuss the budget for next year.',
  'Revenue grew by twelve percent, mostly from new customers in Spain.',
  'The team agreed that hiring two engineers is the first priority.',
  'Marketing asked for more money for the spring campaign.',
  'Several members worried about the cost of the new office.',
  'The chair said the office move can wait until the autumn.',
  'Everyone agreed to review the numbers again next month.',
  'The meeting ended with a short thank you to the staff.',
];

/** The service's own view of a session: erased means no name and no documents. */
async function erasedOnService(sessionId: string): Promise<boolean> {
  const auth = { authorization: `Bearer ${await serviceLogin(svc.url, DEMO)}` };
  const s = (await (await fetch(`${svc.url}/api/v3/speech-to-text/session/${sessionId}`, { headers: auth })).json()) as { result: { filename: string } };
  const docs = (await (await fetch(`${svc.url}/api/v3/speech-to-text/session/${sessionId}/document`, { headers: auth })).json()) as { total_results: number };
  return s.result.filename === '' && docs.total_results === 0;
}

const list = () => page.getByRole('list', { name: 'Sessions' });
const row = (name: string) => list().getByRole('button', { name: new RegExp(name.replace(/[.()]/g, '\\$&')) });
/** Asks for a sync where the badge offers it (it does not while it reports the service down); edits kick one anyway. */
async function syncNow() {
  const button = page.getByTitle('Sync now');
  if (await button.count()) await button.click();
}

async function openSession(name: string) {
  const heading = page.getByRole('heading', { level: 2, name });
  // A click can land while a sync redraws the list: clicked again until the session opens.
  await expect
    .poll(async () => {
      if ((await heading.count()) === 0) await row(name).click({ timeout: 5_000 }).catch(() => {});
      return heading.count();
    }, { timeout: 30_000, interval: 1000 })
    .toBe(1);
}

const shoot = (name: string, dir = SHOTS) => shootLooks(page, dir, name);

beforeAll(async () => {
  svc = await startService();
  serviceDir = svc.dataDir;
  port = Number(new URL(svc.url).port);
  const names = ['board-meeting.wav', 'interview.wav', 'podcast.wav', 'lecture.wav', 'offline-one.wav', 'keep-me.wav'];
  seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: names.length, texts: () => SENTENCES });
  // seedService names them recording-N.wav; give them names a person would tell apart.
  const db = new Database(join(svc.dataDir, 'service.db'));
  seeded.sessions.forEach((s, i) => db.prepare('UPDATE sessions SET filename = ? WHERE session_id = ?').run(names[i], s.sessionId));
  db.close();
  app = await startCloudApp(svc.url);
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.url).origin });
  page = await context.newPage();
  // A render error blanks the page; say so in the test's output instead of only timing out.
  page.on('pageerror', (e) => console.log('page error:', e.message));
  await page.goto(await app.newUrl());
  await submitSignIn(page, DEMO);
  await vi.waitFor(async () => expect(await row('keep-me.wav').count()).toBe(1), { timeout: 60_000, interval: 250 }).catch(async (e) => {
    await page.screenshot({ path: '/tmp/sessions-app-debug.png' });
    throw e;
  });
}, 120_000);

afterAll(() => closeCloudRun({ browser, app, svc, serviceDir }));

describe('session page and list, against the local service', () => {
  it('deletes a session online, after asking, and the service has erased it', async () => {
    await openSession('board-meeting.wav');
    await shoot('session-page');
    await page.getByRole('button', { name: 'Delete session…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this session?' });
    await expect.poll(() => dialog.textContent()).toMatch(/board-meeting\.wav.*1 document/);
    // Online, it says what happens now: no "when it is reached" while the service is reached.
    expect(await dialog.textContent()).toContain('deleted here and on the service.');
    await dialog.getByRole('button', { name: 'Delete session' }).click();
    await expect.poll(() => row('board-meeting.wav').count()).toBe(0);
    await expect.poll(async () => (await syncNow(), erasedOnService(seeded.sessions[0].sessionId)), { timeout: 30_000, interval: 1000 }).toBe(true);
    await syncNow();
    await expect.poll(() => row('keep-me.wav').count()).toBe(1);
    expect(await row('board-meeting.wav').count()).toBe(0);
  }, 90_000);

  it('translates a transcript into Spanish and shows the new document', async () => {
    await openSession('interview.wav');
    await page.getByRole('group', { name: 'Document actions' }).getByRole('button', { name: 'Document' }).click();
    await page.getByRole('menuitem', { name: 'Translate…' }).click();
    const dialog = page.getByRole('dialog', { name: /Translate/ });
    const select = dialog.getByLabel('Target language');
    // The engine here has en->es only: others are listed, marked unavailable.
    await expect.poll(() => select.locator('option:not([disabled])').count(), { timeout: 20_000 }).toBeGreaterThan(1);
    expect(await select.locator('option[disabled]').count()).toBeGreaterThan(10);
    await select.selectOption('ES');
    await dialog.getByRole('button', { name: 'Translate' }).click();
    const tab = page.getByRole('tab', { name: /\(ES\)/ });
    await expect.poll(() => tab.count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
    const text = (await page.getByRole('list', { name: 'Transcript' }).textContent()) ?? '';
    expect(text).toMatch(/presupuesto|junta|equipo|reunión/i);
  }, 90_000);

  it('summarizes a transcript: the summary is shorter than the text', async () => {
    await openSession('podcast.wav');
    await page.getByRole('group', { name: 'Document actions' }).getByRole('button', { name: 'Document' }).click();
    await page.getByRole('menuitem', { name: 'Summarize' }).click();
    const summary = page.locator('details.summary');
    await expect.poll(async () => (await syncNow(), summary.count()), { timeout: 30_000, interval: 1000 }).toBe(1);
    await summary.locator('summary').click();
    const words = ((await summary.locator('p').textContent()) ?? '').split(/\s+/).filter(Boolean).length;
    const source = SENTENCES.join(' ').split(/\s+/).length;
    expect(words).toBeGreaterThan(3);
    expect(words).toBeLessThan(source * 0.75);
  }, 90_000);

  it('shares a link, copies it, revokes it; the buttons in the footer, each note beside its link, focus kept', async () => {
    await openSession('lecture.wav');
    await page.getByRole('button', { name: 'Share…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share' });
    const make = dialog.getByRole('button', { name: 'Make link' });
    const email = dialog.getByRole('form', { name: 'Send a link by e-mail' });
    const top = async (l: typeof make) => (await l.boundingBox())!.y;
    const isPrimary = () => make.evaluate((b) => b.classList.contains('primary'));
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? document.activeElement?.tagName);
    // Close and Make link are the dialog's footer, below the e-mail form; with no link yet, Make link is the main button.
    expect(await top(dialog.getByRole('button', { name: 'Close' }))).toBeGreaterThan(await top(email));
    expect(await top(make)).toBeGreaterThan(await top(email));
    expect(await isPrimary()).toBe(true);
    await shoot('share-before');
    await make.click();
    const link = dialog.getByLabel('Link', { exact: true });
    await expect.poll(() => link.count(), { timeout: 30_000 }).toBe(1);
    // The button that was pressed went disabled while it asked: focus is on the new link's Copy, not lost to the page.
    await expect.poll(() => focused(), { timeout: 30_000 }).toBe('Copy');
    expect(await isPrimary()).toBe(false);
    expect(await dialog.getByText(/^Made on .* · read only · may export · until /).count()).toBe(1);
    // "Link ready." is just below the link, above the e-mail form.
    const ready = dialog.getByText('Link ready.');
    await expect.poll(() => ready.count(), { timeout: 30_000 }).toBe(1);
    expect(await top(ready)).toBeGreaterThan(await top(link));
    expect(await top(ready)).toBeLessThan(await top(email));
    const url = await link.inputValue();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*token=/);
    expect(await dialog.getByText('it opens only here').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    expect((await fetch(url)).status).toBe(200);
    await shoot('share-dialog');
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => link.count()).toBe(0);
    // The Revoke button is gone with its link: focus goes to Make link, the main button again.
    await expect.poll(() => focused()).toBe('Make link');
    expect(await isPrimary()).toBe(true);
    const revoked = dialog.getByText(/^Link revoked/);
    expect(await revoked.count()).toBe(1);
    expect(await top(revoked)).toBeLessThan(await top(email));
    await shoot('share-revoked');
    const after = await fetch(url);
    expect(after.status).toBe(410);
    expect(await after.text()).toMatch(/expired/i);
    await dialog.getByRole('button', { name: 'Close' }).click();
  }, 90_000);

  it('a link sent by e-mail where the service has no mail server: "not sent", where the draft is, the link to copy', async () => {
    await openSession('lecture.wav');
    await page.getByRole('button', { name: 'Share…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share' });
    await dialog.getByRole('textbox', { name: /Send a read-only link by e-mail/ }).fill('colleague@example.com');
    await dialog.getByRole('button', { name: 'Send' }).click();
    const outcome = dialog.locator('.mail-draft');
    await expect.poll(() => outcome.count(), { timeout: 30_000 }).toBe(1);
    expect(await outcome.locator('p').textContent()).toMatch(/^Not sent: the service has no mail server set up\. Saved as a draft e-mail in \S+\.eml; this link opens only on this computer\.$/);
    expect(await dialog.getByText(/Link sent to/).count()).toBe(0);
    const draft = (await outcome.locator('code').textContent())!;
    expect(draft.startsWith(join(serviceDir, 'mail-spool'))).toBe(true);
    expect(readFileSync(draft, 'utf8')).toMatch(/^To: colleague@example\.com$/m);
    await outcome.getByRole('button', { name: 'Copy the link' }).click();
    const url = await page.evaluate(() => navigator.clipboard.readText());
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/transcripts\/shared\/.*token=/);
    expect((await fetch(url)).status).toBe(200);
    expect(await outcome.getByRole('link', { name: 'Write it in your mail app' }).getAttribute('href')).toMatch(/^mailto:colleague%40example\.com\?subject=.*&body=.*token%3D/);
    await shoot('share-email-draft', '/tmp/shots/truth-media');
    await dialog.getByRole('button', { name: 'Close' }).click();
  }, 90_000);

  it('bulk: Ctrl-click two sessions and delete both after one confirmation that says how many', async () => {
    await row('interview.wav').click({ modifiers: ['Control'] });
    await row('lecture.wav').click({ modifiers: ['Control'] });
    const bar = page.getByRole('region', { name: 'Selected sessions' });
    await expect.poll(() => bar.textContent()).toContain('2 sessions selected');
    await shoot('bulk-selection');
    await bar.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete 2 sessions?' });
    await dialog.getByRole('button', { name: 'Delete 2 sessions' }).click();
    await expect.poll(() => row('interview.wav').count()).toBe(0);
    expect(await row('lecture.wav').count()).toBe(0);
    for (const i of [1, 3]) await expect.poll(async () => (await syncNow(), erasedOnService(seeded.sessions[i].sessionId)), { timeout: 30_000, interval: 1000 }).toBe(true);
    expect(await row('keep-me.wav').count()).toBe(1);
  }, 90_000);

  it('deletes a session offline (service stopped); it goes when the service is back and stays deleted', async () => {
    await svc.stop();
    await openSession('offline-one.wav');
    await page.getByRole('button', { name: 'Delete session…' }).click();
    await page.getByRole('dialog', { name: 'Delete this session?' }).getByRole('button', { name: 'Delete session' }).click();
    await expect.poll(() => row('offline-one.wav').count()).toBe(0);
    svc = await startService({ dataDir: serviceDir, port });
    await expect.poll(async () => (await syncNow(), erasedOnService(seeded.sessions[4].sessionId)), { timeout: 60_000, interval: 1000 }).toBe(true);
    await syncNow();
    expect(await row('offline-one.wav').count()).toBe(0);
    expect(await row('keep-me.wav').count()).toBe(1);
  }, 120_000);
});

describe('10,000 cached sessions (the service stopped, so no sync touches the cache)', () => {
  const N = 10_000;
  const STATUSES = ['queued', 'processing', 'completed', 'failed', 'dead_letter', 'uploaded'];
  const LANGS = ['en', 'es', 'de'];
  const sessions = Array.from({ length: N }, (_, i) => {
    const stamp = new Date(Date.UTC(2025, 0, 1) + ((i * 7919) % N) * 60_000).toISOString();
    return {
      session_id: `bulk-${String(i).padStart(5, '0')}`, duration: (i * 37) % 7200, error: STATUSES[i % 6] === 'failed' ? `engine crashed on chunk ${i}` : null,
      filename: `${['Alpha', 'bravo', 'Charlie', 'delta'][i % 4]} ${String((i * 31) % 9973).padStart(4, '0')}.wav`, media_type: 'audio/wav', media_url: '',
      language: LANGS[i % 3], status: STATUSES[i % 6], last_modified: stamp, date_upload: stamp, session_mode: ['decode', 'align', 'upload'][i % 3],
    };
  });

  beforeAll(async () => {
    await svc.stop();
    const db = new Database(join(app.dataDir, 'cache.db'));
    const accountId = (db.prepare('SELECT id FROM accounts WHERE is_current = 1').get() as { id: number }).id;
    const ins = db.prepare('INSERT INTO sessions (session_id, account_id, filename, language, status, last_modified, data) VALUES (?, ?, ?, ?, ?, ?, ?)');
    db.transaction(() => sessions.forEach((s) => ins.run(s.session_id, accountId, s.filename, s.language, s.status, s.last_modified, JSON.stringify(s))))();
    db.close();
    await page.reload();
    await vi.waitFor(async () => expect(await page.getByRole('status').filter({ hasText: /sessions$/ }).first().textContent()).toMatch(/^10,00\d sessions$/), { timeout: 30_000, interval: 250 });
  }, 60_000);

  const firstNames = async (n: number) => (await list().locator('.session .name').allTextContents()).slice(0, n);

  it('sorts by name and by duration both ways, filters by status and language, and keeps all of it after a reload', async () => {
    const byName = [...sessions].sort((a, b) => a.filename.toLowerCase().localeCompare(b.filename.toLowerCase()) || a.session_id.localeCompare(b.session_id));
    await page.getByLabel('Sort by').selectOption('name');
    await page.getByRole('button', { name: /Descending; switch to ascending/ }).click();
    await expect.poll(() => firstNames(3)).toEqual(byName.slice(0, 3).map((s) => s.filename));
    await page.getByLabel('Sort by').selectOption('duration');
    const byDurationDesc = [...sessions].sort((a, b) => b.duration - a.duration || b.session_id.localeCompare(a.session_id));
    await page.getByRole('button', { name: /Ascending; switch to descending/ }).click();
    await expect.poll(() => firstNames(3)).toEqual(byDurationDesc.slice(0, 3).map((s) => s.filename));

    await page.getByLabel('Status filter').selectOption('failed');
    await page.getByLabel('Language filter').selectOption('en');
    const matching = byDurationDesc.filter((s) => s.status === 'failed' && s.language === 'en');
    expect(matching.length).toBeGreaterThan(100);
    await expect.poll(() => page.getByRole('status').filter({ hasText: /sessions?$/ }).first().textContent()).toBe(`${matching.length.toLocaleString('en-US')} sessions`);
    await expect.poll(() => firstNames(3)).toEqual(matching.slice(0, 3).map((s) => s.filename));
    // A failed session's error is on its badge.
    expect(await list().locator('.status-badge.failed').first().getAttribute('title')).toBe(matching[0].error);
    await page.reload();
    await expect.poll(() => firstNames(3), { timeout: 30_000 }).toEqual(matching.slice(0, 3).map((s) => s.filename));
    expect(await page.getByLabel('Sort by').inputValue()).toBe('duration');
    expect(await page.getByLabel('Status filter').inputValue()).toBe('failed');
    expect(await page.getByLabel('Language filter').inputValue()).toBe('en');
    await shoot('list-filtered');

    // Back to everything, newest first; the end of the list is reached by scrolling.
    await page.getByLabel('Status filter').selectOption('');
    await page.getByLabel('Language filter').selectOption('');
    await page.getByLabel('Sort by').selectOption('date');
    const oldest = [...sessions].sort((a, b) => a.date_upload.localeCompare(b.date_upload))[0];
    // A new order puts the list back at its top, so the scroll is made again until the redraw has landed.
    await expect.poll(async () => {
      await list().evaluate((el) => el.scrollTo(0, el.scrollHeight));
      return list().getByText(oldest.filename, { exact: true }).count();
    }, { timeout: 20_000 }).toBe(1);
    expect(await list().locator('.session-row').count()).toBeLessThan(80); // virtualized: only the rows in view exist
    await list().evaluate((el) => el.scrollTo(0, 0));
    await shoot('list-10000');
  }, 120_000);
});
