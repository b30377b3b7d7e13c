/**
 * Notices that stay true, in real Chromium through the web bridge, the app on a local service of
 * the test's own (so it can be stopped): a save made while the service is down says so, and says
 * "sent" once the service has it; "summary requested" becomes "ready" when the summary is in; the
 * document's actions sit in one Document menu, the destructive ones last and apart; the status
 * pill stops saying Online while the service is hung; Help and about says the version, where the
 * data lives and the licences; a deleted
 * session leaves a note saying so, not "not in the local cache". Screenshots go to /tmp/shots/truth-ui/.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromium } from '../helpers/app';
import { DEMO, ROOT, startService, type RunningService } from '../helpers/service';
import { closeCloudRun, type CloudApp, shootLooks, startCloudApp, submitSignIn } from '../helpers/ui';
import { seedService } from '../main/helpers/seed';
import { body } from '../main/helpers/fixtures';
import { insertDocument } from '../../service/documents/store';
import { transcriptToCaptions, type TranscriptContent } from '../../common/transcript';

const SHOTS = '/tmp/shots/truth-ui';
const NAMES = ['offline-notes.wav', 'summary-plans.wav', 'goes-away.wav', 'captioned.wav'];
/** The captions of NAMES[3] were retimed on the Captions tab: every cue 5 s later than the transcript's words. */
const RETIMED_MS = 5000;
const SENTENCES = [
  'The board met on Monday to discuss the budget for next year.',
  'Revenue grew by twelve percent, mostly from new customers in Spain.',
  'The team agreed that hiring two engineers is the first priority.',
  'Marketing asked for more money for the spring campaign.',
];
let svc: RunningService;
let serviceDir: string;
let port: number;
let app: CloudApp;
let browser: Browser;
let page: Page;

const list = () => page.getByRole('list', { name: 'Sessions' });
const row = (name: string) => list().getByRole('button', { name: new RegExp(name.replace(/[.()]/g, '\\$&')) });
const toolbarStatus = () => page.locator('.editor .toolbar [role="status"]');
async function syncNow() {
  const button = page.getByTitle('Sync now');
  if (await button.count()) await button.click();
}
/** What a session row does not show whole: anything but the name and the mode (which may be shortened), against its line's edge. */
function clippedInRow(name: string): Promise<string[]> {
  return row(name).evaluate((button) =>
    Array.from(button.querySelectorAll('.meta > *, .badge'))
      .filter((c) => !c.classList.contains('mode') && (c.getBoundingClientRect().right > c.parentElement!.getBoundingClientRect().right + 0.5 || c.scrollWidth > c.clientWidth + 0.5))
      .map((c) => c.textContent ?? ''),
  );
}
async function openSession(name: string) {
  await row(name).click();
  await expect.poll(() => page.getByRole('heading', { level: 2, name }).count(), { timeout: 20_000 }).toBe(1);
  await page.getByRole('tab', { name: /^Transcript/ }).click();
  await expect.poll(() => page.getByRole('list', { name: 'Transcript' }).count(), { timeout: 20_000 }).toBe(1);
}
const shoot = (name: string) => shootLooks(page, SHOTS, name);

beforeAll(async () => {
  svc = await startService();
  serviceDir = svc.dataDir;
  port = Number(new URL(svc.url).port);
  const seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: NAMES.length, texts: () => SENTENCES });
  const db = new Database(join(svc.dataDir, 'service.db'));
  seeded.sessions.forEach((s, i) => db.prepare('UPDATE sessions SET filename = ? WHERE session_id = ?').run(NAMES[i], s.sessionId));
  const pk = (db.prepare('SELECT id FROM sessions WHERE session_id = ?').get(seeded.sessions[3].sessionId) as { id: number }).id;
  const cut = transcriptToCaptions(body(SENTENCES).content as TranscriptContent);
  const retimed = { ...cut, cues: cut.cues.map((c) => ({ ...c, start_ms: c.start_ms + RETIMED_MS, end_ms: c.end_ms + RETIMED_MS })) };
  insertDocument(db, { sessionPk: pk, filename: 'captions.json', type: 'caption', language: 'en', body: { document_type: 'caption', metadata: {}, content: retimed } });
  db.close();
  app = await startCloudApp(svc.url);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => console.log('page error:', e.message));
  await page.goto(await app.newUrl());
  await submitSignIn(page, DEMO);
  await vi.waitFor(async () => expect(await row(NAMES[2]).count()).toBe(1), { timeout: 60_000, interval: 250 });
}, 120_000);

afterAll(() => closeCloudRun({ browser, app, svc, serviceDir }));

describe('notices that change with the state they describe', () => {
  it('a save made while the service is down says so, then says sent once the service has it', async () => {
    await openSession(NAMES[0]);
    await svc.stop();
    await expect.poll(async () => (await syncNow(), page.locator('.sync-status .sync').textContent()), { timeout: 60_000, interval: 1000 }).toMatch(/Offline/);
    const first = page.getByRole('list', { name: 'Transcript' }).locator(':scope > li').first();
    await first.locator('.seg-text').dblclick();
    await page.getByLabel('Segment text').fill('The board met on Tuesday instead.');
    await page.getByLabel('Segment text').press('Enter');
    await page.keyboard.press('Control+s');
    try {
      await expect.poll(() => toolbarStatus().textContent(), { timeout: 30_000 }).toBe('Saved on this computer. It goes to the service when it is reached again.');
      await shoot('saved-offline');
      // The row says so whole: its date and its "unsent" badge are not cut off (the mode gives way).
      await expect.poll(() => row(NAMES[0]).textContent(), { timeout: 20_000 }).toContain('1 unsent');
      expect(await clippedInRow(NAMES[0])).toEqual([]);
    } finally {
      svc = await startService({ dataDir: serviceDir, port });
    }
    await expect.poll(async () => (await syncNow(), toolbarStatus().textContent()), { timeout: 60_000, interval: 1000 }).toBe('Saved and sent: the service has these edits.');
    expect(await page.getByText('It goes to the service when it is reached again').count()).toBe(0);
    await shoot('saved-then-sent');
  }, 120_000);

  it('"summary requested" becomes "ready" when the summary has arrived', async () => {
    await openSession(NAMES[1]);
    await page.getByRole('group', { name: 'Document actions' }).getByRole('button', { name: 'Document' }).click();
    await page.getByRole('menuitem', { name: 'Summarize' }).click();
    await expect.poll(() => toolbarStatus().textContent()).toBe('Summary requested: it appears here after the next sync.');
    await expect.poll(async () => (await syncNow(), page.locator('details.summary').count()), { timeout: 30_000, interval: 1000 }).toBe(1);
    await expect.poll(() => toolbarStatus().textContent()).toBe('Summary ready: open “Summary” above the text.');
    await shoot('summary-ready');
  }, 90_000);
});

describe('the status pill', () => {
  it('stops saying Online while the service is hung, and says it again once it answers', async () => {
    const pill = page.locator('.sync-status .sync');
    await expect.poll(() => pill.textContent(), { timeout: 30_000 }).toMatch(/^\s*Online/);
    // Stopped, not gone: the connection stays open and nothing answers, as with a hung service.
    svc.child.kill('SIGSTOP');
    try {
      await syncNow();
      await expect.poll(() => pill.textContent(), { timeout: 60_000, interval: 250 }).toMatch(/Service slow or failing/);
      await shoot('service-hung');
    } finally {
      svc.child.kill('SIGCONT');
    }
    await expect.poll(async () => (await syncNow(), pill.textContent()), { timeout: 60_000, interval: 1000 }).toMatch(/^\s*Online/);
  }, 150_000);
});

describe('the document toolbar', () => {
  it('keeps the everyday actions in view and the rest in the Document menu, the destructive ones last and apart', async () => {
    await openSession(NAMES[1]);
    const actions = page.getByRole('group', { name: 'Document actions' });
    // In view: Share and the Document menu; nothing destructive sits among the everyday buttons.
    expect(await actions.getByRole('button').allTextContents()).toEqual(['Share…', 'Document ▾']);
    expect(await page.locator('.editor .toolbar button.danger').count()).toBe(0);
    for (const name of ['Save', 'Undo', 'Redo', 'Find and replace', 'Export']) expect(await page.locator('.editor .toolbar').getByRole('button', { name, exact: true }).isVisible(), name).toBe(true);
    await actions.getByRole('button', { name: 'Document' }).click();
    const items = page.getByRole('menu', { name: 'Document' }).getByRole('menuitem');
    const labels = await items.allTextContents();
    expect(labels.slice(-3)).toEqual(['Reset…', 'Clear text…', 'Delete…']);
    expect(labels).toEqual(expect.arrayContaining(['Finalize', 'Copy…', 'Merge…', 'Summarize', 'Translate…', 'Rename…']));
    expect(labels).not.toContain('Share…');
    // The first destructive item is set apart by a line; the ones before it are not red.
    expect(await page.getByRole('menu', { name: 'Document' }).locator('li.separated').filter({ hasText: 'Reset…' }).count()).toBe(1);
    expect(await page.getByRole('menu', { name: 'Document' }).locator('[role="menuitem"].danger').allTextContents()).toEqual(['Reset…', 'Clear text…', 'Delete…']);
    await shoot('document-menu');
    await page.keyboard.press('Escape');
  }, 60_000);
});

describe('a caption export from the transcript', () => {
  it('says whether it takes the Captions tab with its timing or cuts the transcript afresh, and does what it says', async () => {
    await openSession(NAMES[3]);
    const exportSrt = async () => {
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByRole('button', { name: 'Export', exact: true }).click()]);
      return readFileSync((await download.path())!, 'utf8');
    };
    const firstCueStart = (srt: string) => /^(\d{2}:\d{2}:\d{2},\d{3}) --> /m.exec(srt)?.[1];
    await page.getByLabel('Export format').selectOption('srt');
    const from = page.getByLabel('Export from');
    expect(await from.locator('option:checked').textContent()).toBe('Cut from transcript');
    expect(firstCueStart(await exportSrt())).toBe('00:00:00,000');
    await from.selectOption({ label: 'Captions tab timing' });
    expect(firstCueStart(await exportSrt())).toBe('00:00:05,000');
    await shoot('export-from-captions');
    // A format that is not captions has nothing to choose.
    await page.getByLabel('Export format').selectOption('txt');
    expect(await from.count()).toBe(0);
    await page.getByLabel('Export format').selectOption('srt');
  }, 60_000);
});

describe('bulk export', () => {
  it('writes one file per session, named after it, never over a file already in the folder', async () => {
    const folder = mkdtempSync(join(tmpdir(), 's2t-bulk-names-'));
    try {
      writeFileSync(join(folder, 'summary-plans.txt'), 'kept: an earlier export\n');
      await row(NAMES[3]).click({ modifiers: ['Control'] });
      await row(NAMES[1]).click({ modifiers: ['Control'] });
      const bar = page.getByRole('region', { name: 'Selected sessions' });
      await expect.poll(() => bar.textContent()).toContain('2 sessions selected');
      await bar.getByRole('button', { name: 'Export…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Export 2 sessions' });
      await dialog.getByLabel('Format').selectOption('txt');
      await dialog.getByLabel('Folder').fill(folder);
      await dialog.getByRole('button', { name: 'Export', exact: true }).click();
      await expect.poll(() => dialog.getByRole('status').textContent(), { timeout: 30_000 }).toContain('2 files written');
      expect(readdirSync(folder).sort()).toEqual(['captioned.txt', 'summary-plans (2).txt', 'summary-plans.txt']);
      expect(readFileSync(join(folder, 'summary-plans.txt'), 'utf8')).toBe('kept: an earlier export\n');
      expect(readFileSync(join(folder, 'summary-plans (2).txt'), 'utf8')).toContain('Revenue grew by twelve percent');
      await dialog.getByRole('button', { name: 'Close' }).click();
      await bar.getByRole('button', { name: 'Clear' }).click();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('Help and about', () => {
  it('says the version, where the data lives, where the docs are, and the licences of what ships', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string> };
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await page.getByRole('button', { name: 'Help and about' }).click();
    const dialog = page.getByRole('dialog', { name: 'Help and about' });
    await expect.poll(() => dialog.textContent(), { timeout: 20_000 }).toContain(`S2T Desktop ${pkg.version}`);
    expect(await dialog.locator('.about-facts code.path').first().textContent()).toBe(app.dataDir);
    expect(await dialog.textContent()).toContain(join(ROOT, 'docs'));
    await dialog.getByText(/^Open-source licences/).click();
    await expect.poll(() => dialog.locator('.about-licences li').count()).toBe(Object.keys(pkg.dependencies).length);
    const licences = await dialog.locator('.about-licences li').allTextContents();
    expect(licences.find((l) => l.startsWith('zod '))).toMatch(/— MIT$/);
    await shoot('help-and-about');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
  }, 60_000);
});

describe('a session that is no longer there', () => {
  it('after deleting the open session the main area says it was deleted and how to go on', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    await page.getByRole('button', { name: 'Show sessions' }).click();
    await row(NAMES[2]).click();
    await expect.poll(() => page.getByRole('heading', { level: 2, name: NAMES[2] }).count(), { timeout: 20_000 }).toBe(1);
    await page.getByRole('button', { name: 'Delete session…' }).click();
    await page.getByRole('dialog', { name: 'Delete this session?' }).getByRole('button', { name: 'Delete session' }).click();
    const main = page.locator('main');
    await expect.poll(() => main.textContent()).toContain('Session deleted.');
    const text = (await main.textContent()) ?? '';
    expect(text).toContain('Choose a session to open its transcript and captions.');
    expect(text).not.toMatch(/local cache/);
    expect(await main.getByRole('button', { name: 'Open the session list' }).count()).toBe(1);
    await shoot('session-deleted');
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 60_000);
});
