/**
 * Every keyboard shortcut the app has, in one list: the shortcut sheet shows it and the key
 * handlers ask `matches(id, event)`, so what the sheet says and what the keys do cannot drift.
 * A chord is written as the sheet shows it: "Mod" is Ctrl (Cmd on macOS), keys joined by "+".
 */

export type ShortcutGroup = 'Anywhere' | 'Playback' | 'Editing' | 'Find and replace' | 'Editing a segment' | 'Timing captions' | 'Menus and dialogs';

export interface Shortcut {
  /** Alternatives: any one of these chords does it. */
  chords: readonly string[];
  does: string;
  group: ShortcutGroup;
}

export const SHORTCUTS = {
  shortcuts: { chords: ['?', 'F1'], does: 'Show these keyboard shortcuts', group: 'Anywhere' },
  newTranscription: { chords: ['Mod+N'], does: 'New transcription', group: 'Anywhere' },
  preferences: { chords: ['Mod+,'], does: 'Preferences', group: 'Anywhere' },
  playPause: { chords: ['Space', 'K'], does: 'Play or pause', group: 'Playback' },
  back: { chords: ['J', 'ArrowLeft'], does: 'Back 5 seconds', group: 'Playback' },
  forward: { chords: ['L', 'ArrowRight'], does: 'Forward 5 seconds', group: 'Playback' },
  slower: { chords: ['<'], does: 'Play slower (down to 0.5×)', group: 'Playback' },
  faster: { chords: ['>'], does: 'Play faster (up to 2×)', group: 'Playback' },
  save: { chords: ['Mod+S'], does: 'Save the document (also while typing)', group: 'Editing' },
  undo: { chords: ['Mod+Z'], does: 'Undo the last edit', group: 'Editing' },
  redo: { chords: ['Mod+Shift+Z', 'Mod+Y'], does: 'Redo', group: 'Editing' },
  nextUnsure: { chords: ['N'], does: 'Next low-confidence word: go there and select it', group: 'Editing' },
  previousUnsure: { chords: ['Shift+N'], does: 'Previous low-confidence word', group: 'Editing' },
  find: { chords: ['Mod+F'], does: 'Find and replace in the document', group: 'Find and replace' },
  findNext: { chords: ['Enter'], does: 'Next match (in the find field)', group: 'Find and replace' },
  findPrevious: { chords: ['Shift+Enter'], does: 'Previous match (in the find field)', group: 'Find and replace' },
  replaceAll: { chords: ['Enter'], does: 'Replace all (in the replace field)', group: 'Find and replace' },
  closeFind: { chords: ['Escape'], does: 'Close the find bar', group: 'Find and replace' },
  keepText: { chords: ['Enter'], does: 'Keep the text', group: 'Editing a segment' },
  cancelText: { chords: ['Escape'], does: 'Cancel the change', group: 'Editing a segment' },
  splitSegment: { chords: ['Shift+Enter'], does: 'Split the segment at the cursor', group: 'Editing a segment' },
  cueStartHere: { chords: ['Alt+I'], does: "Set the cue's start to the playhead (the cue being edited, else the one playing)", group: 'Timing captions' },
  cueEndHere: { chords: ['Alt+O'], does: "Set the cue's end to the playhead", group: 'Timing captions' },
  cueEarlier: { chords: ['Alt+ArrowLeft'], does: 'Move the cue 100 ms earlier', group: 'Timing captions' },
  cueLater: { chords: ['Alt+ArrowRight'], does: 'Move the cue 100 ms later', group: 'Timing captions' },
  cueFrameEarlier: { chords: ['Alt+Shift+ArrowLeft'], does: 'Move the cue one frame earlier', group: 'Timing captions' },
  cueFrameLater: { chords: ['Alt+Shift+ArrowRight'], does: 'Move the cue one frame later', group: 'Timing captions' },
  cueSnap: { chords: ['Alt+P'], does: "Start the cue right after the previous one, leaving the profile's minimum gap", group: 'Timing captions' },
  menuMove: { chords: ['ArrowDown', 'ArrowUp', 'Home', 'End'], does: 'Move through a menu or search results', group: 'Menus and dialogs' },
  close: { chords: ['Escape'], does: 'Close a menu, dialog or this sheet', group: 'Menus and dialogs' },
} as const satisfies Record<string, Shortcut>;

export type ShortcutId = keyof typeof SHORTCUTS;

const KEY_NAMES: Record<string, string> = { Space: ' ' };

/** How a chord's part reads on the sheet. */
export function keyLabel(part: string, mac = isMac()): string {
  if (part === 'Mod') return mac ? '⌘' : 'Ctrl';
  if (part === 'Alt') return mac ? '⌥' : 'Alt';
  return { ArrowLeft: '←', ArrowRight: '→', ArrowUp: '↑', ArrowDown: '↓', Escape: 'Esc' }[part] ?? part;
}

/** Splits "Mod+Shift+Z" into its parts; "Mod++" would be the plus key (no shortcut uses it). */
export function chordParts(chord: string): string[] {
  return chord.split(/\+(?!$)/);
}

function chordMatches(chord: string, e: KeyboardEvent | React.KeyboardEvent): boolean {
  const parts = chordParts(chord);
  const key = parts[parts.length - 1];
  const mods = new Set(parts.slice(0, -1));
  const wanted = KEY_NAMES[key] ?? key;
  // A printed symbol ("?", ",") already says whether Shift was needed, so Shift is not compared for it.
  const symbol = wanted.length === 1 && !/[a-z0-9 ]/i.test(wanted);
  if ((e.ctrlKey || e.metaKey) !== mods.has('Mod') || e.altKey !== mods.has('Alt')) return false;
  if (!symbol && e.shiftKey !== mods.has('Shift')) return false;
  // Option+letter types a symbol on macOS ("ˆ" for Option+I): the key's place says which letter it is.
  if (mods.has('Alt') && /^[a-z]$/i.test(wanted) && 'code' in e && e.code === `Key${wanted.toUpperCase()}`) return true;
  return e.key.length === 1 ? e.key.toLowerCase() === wanted.toLowerCase() : e.key === wanted;
}

/** Whether a key press is one of the shortcut's chords. */
export function matches(id: ShortcutId, e: KeyboardEvent | React.KeyboardEvent): boolean {
  return SHORTCUTS[id].chords.some((c) => chordMatches(c, e));
}

function isMac(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
}
