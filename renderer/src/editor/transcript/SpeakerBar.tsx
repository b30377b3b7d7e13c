import type { Speaker } from '../../../../common/transcript';
import { useDraft } from '../../lib/useDraft';

/**
 * The document's speakers. A name is kept in one place (segments refer to it by id), so renaming
 * here renames the speaker everywhere.
 */
export function SpeakerBar({ speakers, onRename, onAdd }: { speakers: Speaker[]; onRename: (id: string, name: string) => void; onAdd: () => void }) {
  return (
    <div className="speaker-bar" role="group" aria-label="Speakers">
      <span className="muted">Speakers</span>
      {speakers.length === 0 && <span className="muted small">none yet — add one, then choose it beside each segment</span>}
      {speakers.map((s, i) => (
        <SpeakerName key={s.id} speaker={s} n={i + 1} onRename={onRename} />
      ))}
      <button type="button" className="link" onClick={onAdd}>+ Add speaker</button>
    </div>
  );
}

function SpeakerName({ speaker, n, onRename }: { speaker: Speaker; n: number; onRename: (id: string, name: string) => void }) {
  const [draft, setDraft] = useDraft(speaker.name);
  const commit = () => {
    const name = draft.trim();
    if (name && name !== speaker.name) onRename(speaker.id, name);
    else setDraft(speaker.name);
  };
  return (
    <input
      className="speaker-name"
      aria-label={`Name of speaker ${n}`}
      value={draft}
      size={Math.max(4, draft.length + 1)}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.currentTarget.blur();
        if (e.key === 'Escape') {
          setDraft(speaker.name);
          e.currentTarget.blur();
        }
      }}
    />
  );
}
