import { useState } from 'react';
import type { Speaker } from '../../../../common/transcript';
import { useDraft } from '../../lib/useDraft';

/**
 * The document's speakers. A name is kept in one place (segments refer to it by id), so renaming
 * here renames the speaker everywhere.
 */
export function SpeakerBar({ speakers, onRename, onAdd, onMerge, readOnly = false }: {
  speakers: Speaker[];
  /** A finished document: names shown, not editable. */
  readOnly?: boolean;
  onRename: (id: string, name: string) => void;
  onAdd: () => void;
  /** Two names for one person: `fromId`'s segments go to `intoId`, which is then called `name` (blank: keeps its name). */
  onMerge: (intoId: string, fromId: string, name: string) => void;
}) {
  const [merging, setMerging] = useState(false);
  return (
    <>
      <div className="speaker-bar" role="group" aria-label="Speakers">
        <span className="muted">Speakers</span>
        {speakers.length === 0 && <span className="muted small">{readOnly ? 'none' : 'none yet — add one, then choose it beside each segment'}</span>}
        {speakers.map((s, i) => (
          <SpeakerName key={s.id} speaker={s} n={i + 1} onRename={onRename} readOnly={readOnly} />
        ))}
        {!readOnly && <button type="button" className="link" onClick={onAdd}>+ Add speaker</button>}
        {speakers.length > 1 && !readOnly && (
          <button type="button" className="link" aria-expanded={merging} onClick={() => setMerging(!merging)}>Merge speakers…</button>
        )}
      </div>
      {merging && speakers.length > 1 && !readOnly && (
        <MergeSpeakers
          speakers={speakers}
          onMerge={(into, from, name) => {
            onMerge(into, from, name);
            setMerging(false);
          }}
          onCancel={() => setMerging(false)}
        />
      )}
    </>
  );
}

/** "Merge Bob into Ann, named Ann Smith": one edit, so one undo puts both names back. */
function MergeSpeakers({ speakers, onMerge, onCancel }: { speakers: Speaker[]; onMerge: (intoId: string, fromId: string, name: string) => void; onCancel: () => void }) {
  const [from, setFrom] = useState(speakers[1].id);
  const [into, setInto] = useState(speakers[0].id);
  const [name, setName] = useState('');
  const label = (s: Speaker) => s.name || '(unnamed)';
  const kept = speakers.find((s) => s.id === into);
  const same = from === into;
  return (
    <form
      className="speaker-merge"
      aria-label="Merge speakers"
      onSubmit={(e) => {
        e.preventDefault();
        if (!same) onMerge(into, from, name);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel();
      }}
    >
      <label>
        Merge <select aria-label="Speaker to merge away" value={from} onChange={(e) => setFrom(e.target.value)}>
          {speakers.map((s) => <option key={s.id} value={s.id}>{label(s)}</option>)}
        </select>
      </label>
      <label>
        into <select aria-label="Speaker to keep" value={into} onChange={(e) => setInto(e.target.value)}>
          {speakers.map((s) => <option key={s.id} value={s.id}>{label(s)}</option>)}
        </select>
      </label>
      <label>
        named <input aria-label="Name after merging" value={name} placeholder={kept ? label(kept) : ''} size={16} onChange={(e) => setName(e.target.value)} />
      </label>
      <button type="submit" disabled={same}>Merge</button>
      <button type="button" className="link" onClick={onCancel}>Cancel</button>
      {same && <span className="muted small">choose two different speakers</span>}
    </form>
  );
}

function SpeakerName({ speaker, n, onRename, readOnly }: { speaker: Speaker; n: number; onRename: (id: string, name: string) => void; readOnly: boolean }) {
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
      readOnly={readOnly}
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
