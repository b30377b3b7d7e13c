import { useId, useState } from 'react';
import type { AccountChoice, GlossaryDraft } from '../../../common/ipc';
import { call } from '../lib/bridge';

/** Terms as the person types them: one a line, "term" or "term = translation". */
const toText = (entries: GlossaryDraft['entries']) => entries.map((e) => (e.target && e.target !== e.source ? `${e.source} = ${e.target}` : e.source)).join('\n');
const toEntries = (text: string): GlossaryDraft['entries'] =>
  text
    .split('\n')
    .map((line) => line.split('='))
    .filter(([source]) => source.trim())
    .map(([source, ...rest]) => ({ source: source.trim(), target: rest.join('=').trim() || source.trim() }));

/**
 * Makes and edits the account's glossaries, inside the dialog that uses them: pick one or start a
 * new one, give it a name and its terms (one a line), save. The local engine learns to hear the
 * terms of the glossary a transcription names.
 */
export function GlossaryEditor(props: { glossaries: AccountChoice[]; onSaved: (id: number) => void; onClose: () => void }) {
  const [editing, setEditing] = useState<number | null>(null);
  const [name, setName] = useState('');
  const [terms, setTerms] = useState('');
  const [status, setStatus] = useState<{ kind: 'error' | 'done' | 'busy'; text: string } | null>(null);
  const ids = { pick: useId(), name: useId(), terms: useId() };

  /** Picking a glossary reads its terms; "A new glossary" empties the form. */
  const pick = async (id: number | null) => {
    setEditing(id);
    setStatus(null);
    if (id === null) {
      setName('');
      setTerms('');
      return;
    }
    setStatus({ kind: 'busy', text: 'Reading the glossary…' });
    try {
      const g = await call('glossaries.get', { id });
      setName(g.name);
      setTerms(toText(g.entries));
      setStatus(null);
    } catch (e) {
      setStatus({ kind: 'error', text: (e as Error).message });
    }
  };

  const save = async () => {
    const entries = toEntries(terms);
    if (!name.trim()) return setStatus({ kind: 'error', text: 'Give the glossary a name.' });
    if (entries.length === 0) return setStatus({ kind: 'error', text: 'Add at least one term, one a line.' });
    if (entries.length > 1000) return setStatus({ kind: 'error', text: `A glossary holds at most 1000 terms; this one has ${entries.length}.` });
    setStatus({ kind: 'busy', text: 'Saving…' });
    try {
      const { id } = await call('glossaries.save', { id: editing, name: name.trim(), language: 'en', entries });
      setEditing(id);
      setStatus({ kind: 'done', text: `Saved "${name.trim()}" with ${entries.length} ${entries.length === 1 ? 'term' : 'terms'}.` });
      props.onSaved(id);
    } catch (e) {
      setStatus({ kind: 'error', text: (e as Error).message });
    }
  };

  return (
    <fieldset className="glossary-editor">
      <legend>Glossaries</legend>
      <div className="language-select">
        <label htmlFor={ids.pick}>Edit</label>
        <select id={ids.pick} value={editing === null ? '' : String(editing)} onChange={(e) => void pick(e.target.value ? Number(e.target.value) : null)}>
          <option value="">A new glossary</option>
          {props.glossaries.map((g) => (
            <option key={String(g.id)} value={String(g.id)}>
              {g.name}
            </option>
          ))}
        </select>
      </div>
      <div className="language-select">
        <label htmlFor={ids.name}>Name</label>
        <input id={ids.name} value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
      </div>
      <label htmlFor={ids.terms}>Terms, one a line (names and words the speech engine should know; "term = translation" to translate)</label>
      <textarea id={ids.terms} rows={5} value={terms} onChange={(e) => setTerms(e.target.value)} />
      <div className="row">
        <button type="button" onClick={() => void save()} disabled={status?.kind === 'busy'}>
          Save glossary
        </button>
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      </div>
      {status && (
        <p className={status.kind === 'error' ? 'error' : 'muted small'} role={status.kind === 'error' ? 'alert' : 'status'}>
          {status.text}
        </p>
      )}
    </fieldset>
  );
}
