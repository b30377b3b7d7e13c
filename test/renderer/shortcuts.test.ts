/** The one shortcut list's matcher: what each chord accepts and refuses, as the key handlers use it. */
import { describe, expect, it } from 'vitest';
import { matches, SHORTCUTS, type ShortcutId } from '../../renderer/src/ui/shortcuts';

const press = (key: string, mods: { ctrl?: boolean; meta?: boolean; shift?: boolean; alt?: boolean } = {}) =>
  ({ key, ctrlKey: !!mods.ctrl, metaKey: !!mods.meta, shiftKey: !!mods.shift, altKey: !!mods.alt }) as KeyboardEvent;
const which = (e: KeyboardEvent) => (Object.keys(SHORTCUTS) as ShortcutId[]).filter((id) => matches(id, e));

describe('shortcut matching', () => {
  it('takes Ctrl or Cmd for Mod, and compares Shift for letters', () => {
    expect(which(press('s', { ctrl: true }))).toEqual(['save']);
    expect(which(press('s', { meta: true }))).toEqual(['save']);
    expect(which(press('s'))).toEqual([]);
    expect(which(press('z', { ctrl: true }))).toEqual(['undo']);
    expect(which(press('Z', { ctrl: true, shift: true }))).toEqual(['redo']);
    expect(which(press('y', { ctrl: true }))).toEqual(['redo']);
    expect(which(press('f', { ctrl: true, alt: true }))).toEqual([]);
  });

  it('takes a printed symbol as typed, whatever Shift it needed', () => {
    expect(which(press('?', { shift: true }))).toEqual(['shortcuts']);
    expect(which(press('F1'))).toEqual(['shortcuts']);
    expect(which(press(',', { ctrl: true }))).toEqual(['preferences']);
    expect(which(press('?', { ctrl: true, shift: true }))).toEqual([]);
  });

  it('plays, pauses and skips on the plain keys only', () => {
    expect(which(press(' '))).toEqual(['playPause']);
    expect(which(press('k'))).toEqual(['playPause']);
    expect(which(press('j'))).toEqual(['back']);
    expect(which(press('ArrowRight'))).toEqual(['forward']);
    expect(which(press('l', { ctrl: true }))).toEqual([]);
    expect(which(press('n', { ctrl: true }))).toEqual(['newTranscription']);
  });
});
