/** How watch-folder figures read: sizes, upload rates, time left, and item states in words. */
import type { WatchItemState } from '../../../common/ipc';

export function bytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${n.toFixed(i && n < 10 ? 1 : 0)} ${units[i]}`;
}

export function eta(seconds: number): string {
  const s = Math.ceil(seconds);
  if (s < 60) return `${s} s left`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${s % 60} s left` : `${Math.floor(m / 60)} h ${m % 60} min left`;
}

export const STATE_LABEL: Record<WatchItemState, string> = {
  detected: 'Queued',
  uploading: 'Uploading',
  transcribing: 'Transcribing',
  fetching: 'Writing files',
  delivered: 'Delivered',
  failed: 'Failed',
};

/** The file name of a path, whichever separator the platform uses. */
export function fileName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/**
 * A file not transcribed because its content was already (same folder, or same profile elsewhere):
 * delivered with a message and nothing written of its own. It can be transcribed again.
 */
export function isDuplicate(i: { state: WatchItemState; message: string | null; outputs: string[] }): boolean {
  return i.state === 'delivered' && i.message !== null && i.outputs.length === 0;
}
