/** Keyboard helpers shared by the shortcut handlers. */

/**
 * Whether a key press is meant for a field being typed into (so shortcuts must leave it alone). A
 * read-only field (a finished document's cue or segment) takes no typing, so Space and K play there.
 */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if ((target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) && target.readOnly) return false;
  return target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], audio, video') !== null;
}

/** While a modal dialog is open, page shortcuts are off: the dialog owns the keyboard. */
export function modalOpen(): boolean {
  return document.querySelector('dialog[open]') !== null;
}

/** Ctrl on Linux and Windows, Cmd on macOS. */
export function commandKey(e: KeyboardEvent | React.KeyboardEvent): boolean {
  return e.ctrlKey || e.metaKey;
}
