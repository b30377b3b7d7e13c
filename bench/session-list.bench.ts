/**
 * The session list with 10,000 cached sessions in Chromium: ours (the app in browser mode, its
 * virtualized list reading pages from the cache through the bridge) beside the same rows rendered
 * without virtualization (one static page with every row's markup), in the same run and browser.
 * Rows: time to first render (ours: reload to first row, which includes the app's start; peer:
 * setContent to first row) and the main thread's CPU time per scrolled frame (p95 of 150 frames
 * scrolling 240 px a frame, from a trace: bench/frame-work.ts says why not rAF intervals).
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../test/helpers/app';
import { DEMO, ROOT, cleanup, startService, tempDir } from '../test/helpers/service';
import { scrollFrameWork, scrollRows } from './frame-work';
import { row, type BenchModule, type BenchRow } from './harness';

const N = 10_000;
const FRAMES = 150;
const STEP = 240;

function sessions() {
  return Array.from({ length: N }, (_, i) => {
    const stamp = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
    return {
      session_id: `bench-${String(i).padStart(5, '0')}`, duration: (i * 37) % 7200, error: null, filename: `Recording ${i}.wav`, media_type: 'audio/wav', media_url: '',
      language: ['en', 'es', 'de'][i % 3], status: ['completed', 'failed', 'processing'][i % 3], last_modified: stamp, date_upload: stamp, session_mode: 'decode',
    };
  });
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export const sessionListBench: BenchModule = {
  name: 'session-list',
  async run(): Promise<BenchRow[]> {
    const svc = await startService();
    const dataDir = tempDir('s2t-bench-list-');
    const child = spawn(process.execPath, [join(ROOT, 'dist/main/headless.js'), '--data', dataDir], { cwd: ROOT, env: { ...process.env, S2T_SERVICE_URL: svc.url }, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`app exited with ${code}`)));
        createInterface({ input: child.stdout! }).on('line', (line) => {
          const m = /^S2T Desktop \(browser mode\): (\S+)$/.exec(line);
          if (m) resolve(m[1]);
        });
      });
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(url);
      await page.getByLabel('E-mail').fill(DEMO.email);
      await page.getByLabel('Password').fill(DEMO.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('list', { name: 'Sessions' }).waitFor({ timeout: 60_000 });
      // Offline from here: no sync touches the cache we fill.
      await svc.stop();
      const rows = sessions();
      const db = new Database(join(dataDir, 'cache.db'));
      const accountId = (db.prepare('SELECT id FROM accounts WHERE is_current = 1').get() as { id: number }).id;
      const ins = db.prepare('INSERT INTO sessions (session_id, account_id, filename, language, status, last_modified, data) VALUES (?, ?, ?, ?, ?, ?, ?)');
      db.transaction(() => rows.forEach((s) => ins.run(s.session_id, accountId, s.filename, s.language, s.status, s.last_modified, JSON.stringify(s))))();
      db.close();

      // Ours: reload to the first row drawn.
      const t0 = performance.now();
      await page.reload();
      await page.locator('.session-row').first().waitFor({ timeout: 60_000 });
      const oursFirst = performance.now() - t0;
      const oursFrames = await scrollFrameWork(browser, page, '.session-scroller', FRAMES, STEP);

      // Peer: the same rows, every one in the page, same row markup, no virtualization.
      const peer = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const css = (await page.evaluate("[...document.querySelectorAll('style, link[rel=stylesheet]')].map((n) => n.outerHTML).join('')")) as string;
      const base = new URL(url).origin;
      // The same scroll box as ours, set here: the copied CSS sizes it only inside the app's layout.
      const box = (await page.locator('.session-scroller').evaluate((el) => `width:${el.clientWidth}px;height:${el.clientHeight}px`)) as string;
      const html = `<!doctype html><html><head><base href="${base}/">${css}</head><body><div class="sessions"><div class="session-scroller" style="contain:none;flex:none;overflow:auto;${box}">${rows
        .map((s) => `<div class="session-row" style="height:58px"><input type="checkbox" class="pick"><button class="session"><span class="name">${escape(s.filename)}</span><span class="meta"><span class="status-badge ${s.status}">${s.status}</span><span>${s.language}</span><span>${s.date_upload}</span></span></button></div>`)
        .join('')}</div></div></body></html>`;
      const t1 = performance.now();
      await peer.setContent(html);
      await peer.locator('.session-row').first().waitFor();
      const peerFirst = performance.now() - t1;
      const peerFrames = await scrollFrameWork(browser, peer, '.session-scroller', FRAMES, STEP);

      return [
        row({ name: 'session list, 10,000 cached: first render (app reload to first row) vs the same rows without virtualization', unit: 'ms', ours: Math.round(oursFirst), peer: Math.round(peerFirst), target: 'ratio <= 0.5', met: oursFirst <= 0.5 * peerFirst }),
        ...scrollRows('session list, 10,000 cached', 'the same rows without virtualization', FRAMES, STEP, oursFrames, peerFrames),
      ];
    } finally {
      await browser.close();
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await svc.stop().catch(() => {});
      cleanup(svc.dataDir);
      cleanup(dataDir);
    }
  },
};
