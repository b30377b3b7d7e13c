/**
 * The renderer main thread's work per frame while an element scrolls, read from a Chromium trace
 * (CDP Tracing, devtools.timeline categories), and the renderer's memory; the same way for ours and
 * for the peer.
 *
 * Why a trace and not requestAnimationFrame intervals: headless Chromium paces frames at ~16.7 ms,
 * so an rAF interval reads 16.7 ms for an idle page and a busy one alike until the busy one drops a
 * frame. `--disable-frame-rate-limit --disable-gpu-vsync` unpaces it (an empty page then runs at
 * ~1,250 frames a second here), but the interval is still wall time on a machine shared with other
 * work, it is the slowest of the pipelined stages rather than the work, and the unpaced compositor
 * spins a core the measured page needs. Timing from the scroll event to the end of the next frame
 * waits for that frame's vsync too. The trace says exactly what ran on the main thread between two
 * frames and for how long, in wall time and in the thread's CPU time.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { percentile, row, type BenchRow } from './harness';

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.frame', 'blink.user_timing'];

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { data?: unknown };
}

export interface FrameWork {
  /** Per frame (or keystroke): main-thread busy wall time (sum of its top-level tasks), ms. */
  wall: number[];
  /** Per frame: the main thread's CPU time in those tasks, ms (robust to other processes' load). */
  cpu: number[];
  /** The page's renderer process. */
  pid: number;
}

/** Runs `action` between two user-timing marks under a trace; returns the page's main thread's top-level tasks in between, with the trace. */
async function traced(browser: Browser, page: Page, action: () => Promise<unknown>): Promise<{ events: TraceEvent[]; tasks: TraceEvent[]; pid: number; tid: number; from: number; to: number }> {
  await browser.startTracing(page, { categories: CATEGORIES });
  try {
    await page.evaluate("performance.mark('bench-trace-start')");
    await action();
    await page.evaluate("performance.mark('bench-trace-end')");
  } catch (err) {
    await browser.stopTracing();
    throw err;
  }
  const events = (JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const mark = (name: string) => {
    const e = events.find((x) => x.name === name);
    if (!e) throw new Error(`trace has no ${name} mark`);
    return e;
  };
  const { pid, tid, ts: from } = mark('bench-trace-start');
  const to = mark('bench-trace-end').ts;
  // Top-level tasks only: a nested run loop's tasks are inside their parent's time already.
  const tasks: TraceEvent[] = [];
  for (const e of events.filter((x) => x.pid === pid && x.tid === tid && x.ts >= from && x.ts <= to && x.ph === 'X' && x.name === 'RunTask').sort((a, b) => a.ts - b.ts)) {
    const last = tasks[tasks.length - 1];
    if (!last || e.ts >= last.ts + (last.dur ?? 0)) tasks.push(e);
  }
  const onThread = events.filter((x) => x.pid === pid && x.tid === tid && x.ts >= from && x.ts <= to);
  return { events: onThread, tasks, pid, tid, from, to };
}

/** Splits `tasks` at each of `starts` (trace times), each part running to the next start: wall and CPU time in ms. */
function split(tasks: TraceEvent[], starts: number[]): { wall: number[]; cpu: number[] } {
  // A part starts with the task in which its first event happens.
  const begins = starts.map((ts) => tasks.find((t) => t.ts <= ts && ts <= t.ts + (t.dur ?? 0))?.ts ?? ts);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let k = 0; k + 1 < begins.length; k++) {
    const part = tasks.filter((t) => t.ts >= begins[k] && t.ts < begins[k + 1]);
    wall.push(part.reduce((s, t) => s + (t.dur ?? 0), 0) / 1000);
    cpu.push(part.reduce((s, t) => s + (t.tdur ?? t.dur ?? 0), 0) / 1000);
  }
  return { wall, cpu };
}

/**
 * Scrolls `selector` by `step` px in each of `frames` animation frames, and splits the main
 * thread's top-level tasks into frames at each BeginMainThreadFrame: a frame's work is every task
 * from the one that draws it up to the next frame's (scroll events, the list's re-render however
 * it is scheduled, style, layout, paint, GC). Raster and compositing run on other threads and are
 * not counted, for ours and the peer alike.
 */
export async function scrollFrameWork(browser: Browser, page: Page, selector: string, frames = 150, step = 240): Promise<FrameWork> {
  // A string, not a function: tsx's helpers are not in the page.
  const script = `new Promise((resolve, reject) => {
    const el = document.querySelector(${JSON.stringify(selector)});
    // A list that reaches its end mid-run would measure idle frames.
    const room = el.scrollHeight - el.clientHeight - el.scrollTop;
    if (room < ${frames * step}) return reject(new Error(${JSON.stringify(selector)} + ' can scroll only ' + room + ' px'));
    let n = 0;
    const tick = () => {
      if (n++ === ${frames}) return setTimeout(resolve, 50);
      el.scrollTop += ${step};
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })`;
  const { events, tasks, pid } = await traced(browser, page, () => page.evaluate(script));
  const { wall, cpu } = split(tasks, events.filter((x) => x.name === 'BeginMainThreadFrame').map((x) => x.ts));
  if (wall.length < frames * 0.9) throw new Error(`trace shows ${wall.length} frames for ${frames} scroll steps`);
  return { wall, cpu, pid };
}

/**
 * The main thread's work for each key `type` presses: every task from the one that dispatches its
 * keydown up to the next keydown's (the input, the re-render however it is scheduled, the frame
 * that paints it), so `type` should let each key settle before the next.
 */
export async function keystrokeWork(browser: Browser, page: Page, type: () => Promise<unknown>): Promise<FrameWork> {
  const { events, tasks, pid, to } = await traced(browser, page, type);
  const keydowns = events.filter((x) => x.name === 'EventDispatch' && (x.args?.data as { type?: string } | undefined)?.type === 'keydown').map((x) => x.ts);
  if (!keydowns.length) throw new Error('trace shows no keydown');
  return { ...split(tasks, [...keydowns, to]), pid };
}

/** The page's renderer process id, from a trace of one mark. */
export async function rendererPid(browser: Browser, page: Page): Promise<number> {
  return (await traced(browser, page, () => Promise.resolve())).pid;
}

/**
 * After a full GC (both pages alike): the V8 heap in use (CDP Performance.getMetrics JSHeapUsedSize)
 * and the renderer process's private memory (Private_Clean + Private_Dirty of /proc/PID/smaps_rollup,
 * what Chrome's task manager counts as the tab's footprint on Linux), in MB.
 */
export async function rendererMemory(browser: Browser, page: Page): Promise<{ jsHeapMB: number; privateMB: number }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('Performance.enable');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN;
    const pid = await rendererPid(browser, page);
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? NaN);
    return { jsHeapMB: heap / 1048576, privateMB: (kb('Private_Clean') + kb('Private_Dirty')) / 1024 };
  } finally {
    await cdp.detach();
  }
}

/** Rounded to a tenth of a millisecond, as the rows print it. */
const p = (v: number[], q: number) => Math.round(percentile(v, q) * 10) / 10;

/**
 * The rows every scroll measure prints, ours beside `peerName`: CPU per frame p95 (the target),
 * then p99 (a few heavy frames, a repainted band or a GC, may fall either side of p95) and busy
 * wall time p95, for information.
 */
export function scrollRows(what: string, peerName: string, frames: number, step: number, ours: FrameWork, peer: FrameWork, targetRatio = 1.5): BenchRow[] {
  return [
    row({ name: `${what}: main-thread CPU per scrolled frame p95 (trace, ${frames} frames of ${step} px) vs ${peerName}`, unit: 'ms', ours: p(ours.cpu, 95), peer: p(peer.cpu, 95), target: `ratio <= ${targetRatio}`, met: percentile(ours.cpu, 95) <= targetRatio * percentile(peer.cpu, 95) }),
    row({ name: `${what}: main-thread CPU per scrolled frame p99 (same frames) vs ${peerName}`, unit: 'ms', ours: p(ours.cpu, 99), peer: p(peer.cpu, 99), target: 'info', met: null }),
    row({ name: `${what}: main-thread busy wall time per scrolled frame p95 (same frames; includes waiting for a core) vs ${peerName}`, unit: 'ms', ours: p(ours.wall, 95), peer: p(peer.wall, 95), target: 'info', met: null }),
  ];
}
