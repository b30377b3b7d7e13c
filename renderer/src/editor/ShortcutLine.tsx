import { Fragment } from 'react';
import { Keys } from '../ui/Keys';
import { SHORTCUTS, type ShortcutId } from '../ui/shortcuts';

/** One hint: a shortcut with all its chords ("Space or K"), or a pair by their first chords ("J L"). */
type Hint = { keys: readonly [ShortcutId] | readonly [ShortcutId, ShortcutId]; says: string } | { text: string };

const hints = (transcript: boolean): Hint[] => [
  { keys: ['playPause'], says: 'play/pause' },
  { keys: ['back', 'forward'], says: 'back/forward 5 s' },
  { text: 'click a word to go there' },
  ...(transcript ? [{ keys: ['nextUnsure', 'previousUnsure'], says: 'next/previous low-confidence word' } as const] : []),
  { keys: ['save'], says: 'save' },
  { keys: ['undo'], says: 'undo' },
];

/** The editor's most used keys, read from the shortcut list (ui/shortcuts.ts) so they say what the keys do. */
export function ShortcutLine({ transcript }: { transcript: boolean }) {
  return (
    <p className="shortcuts muted small">
      {hints(transcript).map((h, i) => {
        const one = !('text' in h) && h.keys.length === 1;
        const chords = 'text' in h ? [] : one ? SHORTCUTS[h.keys[0]].chords : h.keys.map((k) => SHORTCUTS[k].chords[0]);
        return (
          <Fragment key={i}>
            {i > 0 && ' · '}
            <Keys chords={chords} between={one ? ' or ' : ' '} />
            {'text' in h ? h.text : ` ${h.says}`}
          </Fragment>
        );
      })}
    </p>
  );
}
