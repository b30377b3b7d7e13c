/**
 * The shared-link viewer, opened in a fresh Chromium context against the real service: it reads
 * the document and plays the kept media; it edits where the link allows (the edit is on the
 * service after) and is refused by the service where it does not (403, and the page says so);
 * it exports where allowed; a revoked link shows "This link has expired" and signs no one out.
 * Also: the link's address is the public URL when one is set (local_only says when it is not).
 */
import { request as httpRequest } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShareLink } from '../../../common/api';
import { launchChromium } from '../../helpers/app';
import { startService, stopAndRemove, type RunningService } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';
import { must } from '../answers';
import { captionOf, client, jobDone, putMedia, sessionDone, transcriptOf, uploadedFileId, type Client } from '../work/helpers';

const STT = '/api/v3/speech-to-text';
const SHOTS = '/tmp/shots/shared';

let svc: RunningService;
let c: Client;
let browser: Browser;
let sid: string;
let transcriptId: string;
let captionId: string;
const contexts: BrowserContext[] = [];

const doc = (id = transcriptId) => `${STT}/session/${sid}/document/${id}`;

async function share(rights: { allow_editing: boolean; allow_export: boolean }, id = transcriptId): Promise<ShareLink> {
  const r = await c.json('documents.share', `${doc(id)}/share`, rights);
  expect(r.status, r.text).toBe(200);
  return r.body;
}

/** A page in a fresh browser context (no cookies, no storage), recording every request it makes. */
async function freshPage(viewport = { width: 1280, height: 800 }): Promise<{ page: Page; requests: string[] }> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  contexts.push(context);
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  return { page, requests };
}

const firstSegmentText = async () => transcriptOf((await c.json('documents.get', doc())).body).segments[0].words.map((w) => w.text).join(' ');

beforeAll(async () => {
  svc = await startService();
  c = await client(svc.url);
  browser = await launchChromium();
  const created = await c.json('sessions.create', `${STT}/session`, { language: 'en', keep_source: true }, { 'x-svc-s2t-key': c.batchKey });
  sid = created.body.result.session_id;
  const wav = await speechWav('The river walls of the old town need repair. The council will pay for the work before the spring floods.');
  expect((await putMedia(c, sid, new Uint8Array(readFileSync(wav)), { 'content-type': 'audio/wav', 'x-filename': 'council.wav' })).status).toBe(200);
  expect((await sessionDone(c, sid, 300_000)).status).toBe('completed');
  const list = (await c.json('documents.list', `${STT}/session/${sid}/document`)).body.result;
  transcriptId = must(list.find((d) => d.type === 'document'), 'the transcript').id;
  captionId = must(list.find((d) => d.type === 'caption'), 'the caption').id;
}, 320_000);

afterAll(async () => {
  for (const ctx of contexts) await ctx.close();
  await browser?.close();
  await stopAndRemove(svc);
});

describe('a link that allows editing and export', () => {
  let link: ShareLink;
  let page: Page;
  let requests: string[];

  beforeAll(async () => {
    link = await share({ allow_editing: true, allow_export: true });
    ({ page, requests } = await freshPage());
  });

  it('has an address on this service, marked as working only on this computer; a mailed link says so', async () => {
    expect(link.url.startsWith(`${svc.url}/transcripts/shared/${sid}/${transcriptId}?token=`)).toBe(true);
    expect(link.local_only).toBe(true);
    expect((await c.json('documents.shareEmail', `${doc()}/share/email`, { email: 'friend@example.org', message: 'Look.' })).status).toBe(200);
    const spool = join(svc.dataDir, 'mail-spool');
    const mail = readFileSync(join(spool, readdirSync(spool)[0]), 'utf8').replace(/=\r\n/g, '');
    expect(mail).toContain('opens only on the computer it was shared from');
  });

  it('opens a self-contained page with a strict CSP that reads the document and plays the kept media', async () => {
    const res = await page.goto(link.url);
    expect(res!.status()).toBe(200);
    const csp = res!.headers()['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(res!.headers()['referrer-policy']).toBe('no-referrer');
    await expect.poll(() => page.locator('h1').textContent()).toBe('council');
    // The last day in words, the day the service gave the link (not 2026-12-24, which reads as a code).
    const until = new Date(link.expires);
    expect(await page.locator('.expires').textContent()).toMatch(new RegExp(`^The link works until [A-Z][a-z]+ ${until.getUTCDate()}, ${until.getUTCFullYear()}\\.$`));
    const words = transcriptOf((await c.json('documents.get', doc())).body).segments.flatMap((s) => s.words.map((w) => w.text));
    expect(words.length).toBeGreaterThan(5);
    expect(await page.locator('ol.document').innerText()).toContain(words.slice(0, 3).join(' '));
    await expect.poll(() => page.locator('audio').evaluate((a: HTMLAudioElement) => a.readyState), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    expect(await page.locator('audio').evaluate((a: HTMLAudioElement) => a.duration)).toBeGreaterThan(3);
    await page.locator('button.time').first().click();
    await expect.poll(() => page.locator('audio').evaluate((a: HTMLAudioElement) => !a.paused || a.currentTime > 0), { timeout: 30_000 }).toBe(true);
    const origin = new URL(svc.url).origin;
    expect(requests.filter((u) => !u.startsWith(origin))).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/viewer-edit-1280x800.png` });
    await page.setViewportSize({ width: 800, height: 600 });
    await page.screenshot({ path: `${SHOTS}/viewer-edit-800x600.png` });
  });

  it('saves an edit through the shared API; the service has it after', async () => {
    const text = page.locator('.text[data-index="0"]');
    await text.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Edited through the shared link');
    await expect.poll(() => page.locator('#status').textContent()).toBe('Unsaved changes.');
    await page.locator('#save').click();
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 20_000 }).toBe('Saved.');
    expect(await firstSegmentText()).toBe('Edited through the shared link');
    const read = (await c.json('documents.get', doc())).body;
    expect(must(read.document, 'the document body').metadata.plain_document_changed).toBe(true);
    const seg = transcriptOf(read).segments[0];
    for (const w of seg.words) {
      expect(w.start_ms).toBeGreaterThanOrEqual(seg.start_ms);
      expect(w.end_ms).toBeLessThanOrEqual(seg.end_ms);
    }
  });

  it('exports in the transcript formats the service renders', async () => {
    const names = await page.locator('.exports a').allTextContents();
    expect(names).toEqual(['TXT', 'HTML', 'DOCX', 'PDF']);
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('.exports a', { hasText: 'TXT' }).click()]);
    const path = await download.path();
    expect(readFileSync(path!, 'utf8')).toContain('Edited through the shared link');
  });

  it('a save after the link is revoked shows "This link has expired", and the owner stays signed in', async () => {
    await page.locator('.text[data-index="0"]').click();
    await page.keyboard.type(' again');
    const revoked = await c.json('DELETE', `${doc()}/share/${encodeURIComponent(link.token)}`);
    expect(revoked.status).toBe(200);
    await page.locator('#save').click();
    await expect.poll(() => page.locator('h1').textContent(), { timeout: 20_000 }).toBe('This link has expired');
    expect(await page.title()).toBe('This link has expired');
    expect(await page.locator('#expired p').textContent()).toBe('The link you opened has expired or was withdrawn by the person who shared it. Ask them for a new link. Your unsaved changes were not saved.');
    expect(await firstSegmentText()).toBe('Edited through the shared link');
    expect((await c.json('account.me', '/api/v3/account/me')).status).toBe(200);
  });

  it('opening the revoked link shows the expired page with 410', async () => {
    const { page: again } = await freshPage();
    const res = await again.goto(link.url);
    expect(res!.status()).toBe(410);
    expect(await again.locator('h1').textContent()).toBe('This link has expired');
    expect(await again.locator('#expired p').textContent()).toBe('The link you opened has expired or was withdrawn by the person who shared it. Ask them for a new link.');
    await again.screenshot({ path: `${SHOTS}/expired-1280x800.png` });
    await again.setViewportSize({ width: 800, height: 600 });
    await again.screenshot({ path: `${SHOTS}/expired-800x600.png` });
  });
});

describe('a read-only link without export', () => {
  let link: ShareLink;
  let page: Page;

  beforeAll(async () => {
    link = await share({ allow_editing: false, allow_export: false });
    ({ page } = await freshPage());
    expect((await page.goto(link.url))!.status()).toBe(200);
  });

  it('shows the text with no way to edit or export, and says so', async () => {
    expect(await page.locator('#rights').textContent()).toContain('Read only: this link does not allow editing.');
    expect(await page.locator('[contenteditable]').count()).toBe(0);
    expect(await page.locator('#save').count()).toBe(0);
    expect(await page.locator('.exports a').count()).toBe(0);
    expect(await page.locator('#export-note').textContent()).toBe('This link does not allow export.');
    await page.screenshot({ path: `${SHOTS}/viewer-readonly-1280x800.png` });
    await page.setViewportSize({ width: 800, height: 600 });
    await page.screenshot({ path: `${SHOTS}/viewer-readonly-800x600.png` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${SHOTS}/viewer-readonly-dark-800x600.png` });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: `${SHOTS}/viewer-readonly-dark-1280x800.png` });
  });

  it('the service refuses an edit and an export with this token (403), whatever the page shows', async () => {
    const before = await firstSegmentText();
    const answers = await page.evaluate(async () => {
      const root = document.getElementById('viewer')!;
      const token = new URLSearchParams(location.search).get('token')!;
      const api = `${root.dataset.api}?token=${encodeURIComponent(token)}`;
      const doc = await (await fetch(api)).json();
      const put = await fetch(api, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ document: doc.document }) });
      const exp = await fetch(`${root.dataset.api}/export/txt?token=${encodeURIComponent(token)}`);
      return [put.status, exp.status];
    });
    expect(answers).toEqual([403, 403]);
    expect(await firstSegmentText()).toBe(before);
  });
});

describe('captions and bad links', () => {
  it('a caption link opens under /captions/shared/ and saves an edited cue', async () => {
    const link = await share({ allow_editing: true, allow_export: true }, captionId);
    expect(link.url).toContain(`/captions/shared/${sid}/${captionId}?token=`);
    const { page } = await freshPage();
    await page.goto(link.url);
    expect(await page.locator('.exports a').allTextContents()).toEqual(['SRT', 'VTT', 'SBV', 'TTML', 'STL']);
    await page.locator('.text[data-index="0"]').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('A cue edited by a guest');
    await page.locator('#save').click();
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 20_000 }).toBe('Saved.');
    expect(captionOf((await c.json('documents.get', doc(captionId))).body).cues[0].lines).toEqual(['A cue edited by a guest']);
    await page.screenshot({ path: `${SHOTS}/viewer-captions-1280x800.png` });
    await page.setViewportSize({ width: 800, height: 600 });
    await page.screenshot({ path: `${SHOTS}/viewer-captions-800x600.png` });
  });

  it('a made-up token, another document\'s path or a cut-off link shows the expired page', async () => {
    const link = await share({ allow_editing: false, allow_export: false });
    for (const path of [
      `/transcripts/shared/${sid}/${transcriptId}?token=not-a-real-token`,
      `/transcripts/shared/${sid}/${captionId}?token=${link.token}`,
      `/transcripts/shared/${sid}/${transcriptId}`,
      `/transcripts/shared/${link.token}`,
    ]) {
      const res = await fetch(`${svc.url}${path}`);
      expect(res.status, path).toBe(410);
      expect(await res.text()).toContain('This link has expired');
    }
  });
});

describe('what the document says is text, never markup', () => {
  it('a speaker name and a segment holding HTML show as written, and nothing in them runs', async () => {
    const read = (await c.json('documents.get', doc())).body;
    const body = must(read.document, 'the transcript body');
    const content = transcriptOf(read);
    const MARKUP = '<img src=x onerror="window.__injected=1"><b id="injected">bold</b> & \'quoted\'';
    content.speakers = [{ id: 'guest', name: `</span><script>window.__injected=2</script>"Eve"` }];
    content.segments[0] = { ...content.segments[0], speaker_id: 'guest', words: [{ ...content.segments[0].words[0], text: MARKUP }] };
    const put = await c.json('documents.update', doc(), { document: { ...body, content } });
    expect(put.status, put.text).toBe(200);
    const { page } = await freshPage();
    expect((await page.goto((await share({ allow_editing: true, allow_export: true })).url))!.status()).toBe(200);
    expect(await page.locator('.text[data-index="0"]').innerText()).toBe(MARKUP);
    expect(await page.locator('.speaker').first().innerText()).toBe(`</span><script>window.__injected=2</script>"Eve"`);
    expect(await page.locator('#injected, ol.document img, ol.document script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __injected?: number }).__injected)).toBeUndefined();
  });
});

describe('a public base URL', () => {
  let pub: RunningService;
  afterAll(() => stopAndRemove(pub));

  it('puts the public address in the link (not local only) and accepts requests for that host', async () => {
    pub = await startService({ args: ['--public-url', 'https://s2t.example.org'] });
    const pc = await client(pub.url);
    const job = await pc.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: await uploadedFileId(pc, 'Hello there. This is shared.', 'note.txt'), language: 'en', session_mode: 'upload' });
    const done = await jobDone(pc, job.body.job_id);
    expect(done.status).toBe('completed');
    const docs = (await pc.json('documents.list', `${STT}/session/${done.metadata.session_id}/document`)).body.result;
    const d = must(docs.find((x) => x.type === 'document'), 'the transcript');
    const link = (await pc.json('documents.share', `${STT}/session/${d.session_id}/document/${d.id}/share`, { allow_editing: false, allow_export: true })).body;
    expect(link.url.startsWith(`https://s2t.example.org/transcripts/shared/${d.session_id}/${d.id}?token=`)).toBe(true);
    expect(link.local_only).toBe(false);
    // What a reverse proxy for that name forwards: the public Host is accepted, a foreign one is not.
    const viaHost = (host: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const u = new URL(link.url.replace('https://s2t.example.org', pub.url));
        const req = httpRequest({ host: u.hostname, port: u.port, path: u.pathname + u.search, headers: { host } }, (res) => {
          let body = '';
          res.on('data', (b: Buffer) => (body += b.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject);
        req.end();
      });
    const ok = await viaHost('s2t.example.org');
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('Hello there. This is shared.');
    expect((await viaHost('evil.example.com')).status).toBe(421);
  });
});
