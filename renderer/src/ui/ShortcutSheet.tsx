import { Fragment } from 'react';
import { Dialog } from './Dialog';
import { chordParts, keyLabel, SHORTCUTS, type Shortcut, type ShortcutGroup } from './shortcuts';

function Chord({ chord }: { chord: string }) {
  const parts = chordParts(chord);
  return (
    <span className="chord">
      {parts.map((p, i) => (
        <Fragment key={i}>
          {i > 0 && '+'}
          <kbd>{keyLabel(p)}</kbd>
        </Fragment>
      ))}
    </span>
  );
}

/** The keyboard-shortcut sheet (? or F1): every entry of SHORTCUTS, by group. */
export function ShortcutSheet({ onClose }: { onClose: () => void }) {
  const groups = new Map<ShortcutGroup, Shortcut[]>();
  for (const s of Object.values(SHORTCUTS) as Shortcut[]) groups.set(s.group, [...(groups.get(s.group) ?? []), s]);
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose} className="shortcut-sheet">
      <div className="shortcut-groups">
        {[...groups].map(([group, list]) => (
          <section key={group} aria-label={group}>
            <h4>{group}</h4>
            <dl>
              {list.map((s) => (
                <div key={s.does} className="shortcut">
                  <dt>
                    {s.chords.map((c, i) => (
                      <Fragment key={c}>
                        {i > 0 && <span className="or"> or </span>}
                        <Chord chord={c} />
                      </Fragment>
                    ))}
                  </dt>
                  <dd>{s.does}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </Dialog>
  );
}
