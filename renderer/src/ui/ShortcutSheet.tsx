import { Dialog } from './Dialog';
import { Keys } from './Keys';
import { SHORTCUTS, type Shortcut, type ShortcutGroup } from './shortcuts';

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
                    <Keys chords={s.chords} between={<span className="or"> or </span>} />
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
