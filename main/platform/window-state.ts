/**
 * The main window's size and place, remembered in settings and put back on a display that is
 * still there: a window saved on a monitor since unplugged (or a smaller screen) comes back whole
 * and visible instead of off-screen.
 */
import type { WindowBounds } from '../../common/ipc/settings';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const DEFAULT_SIZE = { width: 1280, height: 820 };
/** How much of the window must overlap a display for it to count as on it. */
const MIN_VISIBLE = 64;

function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * Bounds to open with: the saved ones, moved and shrunk into the work area of the display they
 * overlap most (or the primary one, `workAreas[0]`, when they overlap none). Without saved
 * bounds: the default size, to be centred (no x/y).
 */
export function restoreBounds(saved: WindowBounds | null, workAreas: Rect[]): Partial<Rect> & { width: number; height: number; maximized: boolean } {
  const primary = workAreas[0];
  if (!saved || !primary) return { ...DEFAULT_SIZE, maximized: false };
  const best = workAreas.reduce((a, b) => (overlap(saved, b) > overlap(saved, a) ? b : a), primary);
  const onIt = overlap(saved, best) >= MIN_VISIBLE * MIN_VISIBLE ? best : primary;
  const width = Math.min(saved.width, onIt.width);
  const height = Math.min(saved.height, onIt.height);
  const x = Math.min(Math.max(saved.x, onIt.x), onIt.x + onIt.width - width);
  const y = Math.min(Math.max(saved.y, onIt.y), onIt.y + onIt.height - height);
  return { x, y, width, height, maximized: saved.maximized };
}

/** The slice of BrowserWindow whose state is remembered. */
export interface TrackedWindow {
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  on(event: 'resize' | 'move' | 'maximize' | 'unmaximize' | 'close', fn: () => void): unknown;
}

/** Saves the window's bounds on change (debounced) and when it closes. */
export function trackWindowState(win: TrackedWindow, save: (bounds: WindowBounds) => void, debounceMs = 500): void {
  let timer: NodeJS.Timeout | undefined;
  const now = () => {
    clearTimeout(timer);
    const b = win.getNormalBounds();
    save({ x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height), maximized: win.isMaximized() });
  };
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(now, debounceMs);
  };
  for (const ev of ['resize', 'move', 'maximize', 'unmaximize'] as const) win.on(ev, soon);
  win.on('close', now);
}
