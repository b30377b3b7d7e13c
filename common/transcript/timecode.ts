/**
 * SMPTE timecodes (HH:MM:SS:FF, drop-frame with ';') and the clock strings the caption formats use.
 * Every time in the model is integer milliseconds; these helpers are the only place that converts.
 */
import { DEFAULT_FRAME_RATE } from './model';

export class TimecodeError extends Error {
  override name = 'TimecodeError';
}

const TIMECODE = /^(\d{2}):(\d{2}):(\d{2})([:;])(\d{2})$/;

/** Frames counted per second in the timecode: 29.97 counts 30 frames a second, drop-frame or not. */
export function nominalFrameRate(frameRate: number): number {
  return Math.round(frameRate);
}

function isDropFrameRate(frameRate: number): boolean {
  const nominal = Math.round(frameRate);
  return nominal % 30 === 0 && Math.abs(frameRate - nominal / 1.001) < 0.01;
}

/** Frame count since 00:00:00:00 of a timecode; ';' means drop-frame (29.97 / 59.94 only). */
export function timecodeToFrames(timecode: string, frameRate: number = DEFAULT_FRAME_RATE): number {
  const m = TIMECODE.exec(timecode);
  if (!m) throw new TimecodeError(`timecode "${timecode}" is not HH:MM:SS:FF`);
  const [h, min, s, f] = [m[1], m[2], m[3], m[5]].map(Number);
  const fps = nominalFrameRate(frameRate);
  if (min > 59 || s > 59) throw new TimecodeError(`timecode "${timecode}" has minutes or seconds above 59`);
  if (f >= fps) throw new TimecodeError(`timecode "${timecode}" has frame ${f}, but the frame rate counts 0..${fps - 1}`);
  const frames = ((h * 60 + min) * 60 + s) * fps + f;
  if (m[4] !== ';') return frames;
  if (!isDropFrameRate(frameRate)) throw new TimecodeError(`drop-frame timecode "${timecode}" needs a 29.97 or 59.94 frame rate`);
  const drop = Math.round(fps / 15); // 2 frames at 29.97, 4 at 59.94
  const totalMinutes = h * 60 + min;
  return frames - drop * (totalMinutes - Math.floor(totalMinutes / 10));
}

/** Drop-frame label digits [h, m, s, f] for a frame count at 29.97 (or 59.94) fps. */
export function dropFrameLabel(frames: number, frameRate: number): [number, number, number, number] {
  const fps = nominalFrameRate(frameRate);
  const drop = Math.round(fps / 15);
  const perTenMinutes = fps * 600 - drop * 9;
  const perMinute = fps * 60 - drop;
  const d = Math.floor(frames / perTenMinutes);
  const m = frames % perTenMinutes;
  const n = frames + drop * 9 * d + (m > drop ? drop * Math.floor((m - drop) / perMinute) : 0);
  const secs = Math.floor(n / fps);
  return [Math.floor(secs / 3600), Math.floor(secs / 60) % 60, secs % 60, n % fps];
}

/** Frame count of drop-frame label digits at 29.97 (or 59.94) fps. */
export function dropFrameCount(h: number, m: number, s: number, f: number, frameRate: number): number {
  const fps = nominalFrameRate(frameRate);
  const drop = Math.round(fps / 15);
  const minutes = h * 60 + m;
  return ((minutes * 60 + s) * fps + f) - drop * (minutes - Math.floor(minutes / 10));
}

/** Milliseconds of real time at the start of a timecode. */
export function timecodeToMs(timecode: string, frameRate: number = DEFAULT_FRAME_RATE): number {
  return Math.round((timecodeToFrames(timecode, frameRate) * 1000) / frameRate);
}

/** The (non-drop-frame) timecode of a time; frames are floored so a frame never starts late. */
export function msToTimecode(ms: number, frameRate: number = DEFAULT_FRAME_RATE): string {
  const fps = nominalFrameRate(frameRate);
  const total = msToFrames(ms, frameRate);
  const f = total % fps;
  const secs = Math.floor(total / fps);
  return `${pad(Math.floor(secs / 3600), 2)}:${pad(Math.floor(secs / 60) % 60, 2)}:${pad(secs % 60, 2)}:${pad(f, 2)}`;
}

export function isValidTimecode(timecode: string, frameRate: number = DEFAULT_FRAME_RATE): boolean {
  try {
    timecodeToFrames(timecode, frameRate);
    return true;
  } catch {
    return false;
  }
}

/** Whole frames elapsed at a time (floor, with a guard against float error just below a frame). */
export function msToFrames(ms: number, frameRate: number): number {
  return Math.floor((Math.max(0, ms) * frameRate) / 1000 + 1e-9);
}

export function framesToMs(frames: number, frameRate: number): number {
  return Math.round((frames * 1000) / frameRate);
}

export function pad(n: number, width: number): string {
  const s = String(n);
  return s.length >= width ? s : '0'.repeat(width - s.length) + s;
}

const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => (i < 10 ? `0${i}` : `${i}`));

/** HH:MM:SS<sep>mmm: SRT uses ',', VTT and TTML use '.'. Hours may exceed 99. (Hot in long exports.) */
export function formatClock(ms: number, sep: ',' | '.' = '.'): string {
  const t = ms > 0 ? Math.round(ms) : 0;
  const milli = t % 1000;
  const s = (t - milli) / 1000;
  const h = Math.floor(s / 3600);
  const m = Math.floor(s / 60) % 60;
  return (h < 100 ? TWO_DIGITS[h] : String(h)) + ':' + TWO_DIGITS[m] + ':' + TWO_DIGITS[s % 60] + sep + (milli < 10 ? '00' : milli < 100 ? '0' : '') + milli;
}

/** HH:MM:SS for reading copies (TXT, HTML, DOCX, PDF). */
export function formatHms(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  return `${pad(Math.floor(s / 3600), 2)}:${pad(Math.floor(s / 60) % 60, 2)}:${pad(s % 60, 2)}`;
}
