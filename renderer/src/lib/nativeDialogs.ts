/**
 * The native open dialog (settings-shell's dialog.open) where there is one: in the Electron app.
 * In browser mode there is none (it answers supported: false), and the views use a file input or a
 * path field instead, asked for directly so the click still counts as the person's own.
 */
import type { OpenPurpose } from '../../../common/ipc';
import { call } from '../lib/bridge';

export function hasNativeDialogs(): boolean {
  return typeof window.s2t !== 'undefined';
}

/** Paths the person chose (empty when cancelled), or null when this window has no native dialog. */
export async function openNative(purpose: OpenPurpose, multiple: boolean): Promise<string[] | null> {
  if (!hasNativeDialogs()) return null;
  const answer = await call('dialog.open', { purpose, multiple });
  return answer.supported ? answer.paths : null;
}
