import { Fragment, type ReactNode } from 'react';
import { chordParts, keyLabel } from './shortcuts';

/**
 * A shortcut's keys as they are pressed: each chord's keys in <kbd> joined by "+", the chords
 * joined by `between` (" or " for a shortcut's alternatives). The sheet and the editor's hint
 * line both draw keys with it.
 */
export function Keys({ chords, between = ' or ' }: { chords: readonly string[]; between?: ReactNode }) {
  return chords.map((chord, i) => (
    <Fragment key={chord}>
      {i > 0 && between}
      <span className="chord">
        {chordParts(chord).map((p, j) => (
          <Fragment key={j}>
            {j > 0 && '+'}
            <kbd>{keyLabel(p)}</kbd>
          </Fragment>
        ))}
      </span>
    </Fragment>
  ));
}
