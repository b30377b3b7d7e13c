import { useEffect, useId, useState } from 'react';
import type { AccountChoice } from '../../../common/ipc';
import { call } from '../lib/bridge';
import { useAsync } from '../lib/useAsync';
import { GlossaryEditor } from './GlossaryEditor';

type Id = AccountChoice['id'];

/** The account's glossaries and custom models (models.accountLists; the cached copy offline). */
export function useAccountLists(): { glossaries: AccountChoice[]; customModels: AccountChoice[]; reload: () => void } {
  const read = useAsync(() => call('models.accountLists', {}), []);
  return { glossaries: read.value?.glossaries ?? [], customModels: read.value?.customModels ?? [], reload: read.reload };
}

/**
 * Glossary and custom model selects, each shown only when the account has some. A remembered id
 * the account no longer has is dropped once the lists are read, so it is never sent unseen.
 */
export function AccountSelects(props: { glossaryId: Id | null; customModelId: Id | null; onChange: (key: 'glossaryId' | 'customModelId', id: Id | null) => void }) {
  const { glossaries, customModels, reload } = useAccountLists();
  const { glossaryId, customModelId, onChange } = props;
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (glossaryId !== null && !glossaries.some((g) => String(g.id) === String(glossaryId))) onChange('glossaryId', null);
    if (customModelId !== null && !customModels.some((m) => String(m.id) === String(customModelId))) onChange('customModelId', null);
    // Only when a list arrives: the choice itself changes nothing here.
  }, [glossaries, customModels]);
  return (
    <>
      {glossaries.length > 0 && <ChoiceSelect label="Glossary" items={glossaries} value={glossaryId} onChange={(id) => onChange('glossaryId', id)} />}
      {customModels.length > 0 && <ChoiceSelect label="Custom model" items={customModels} value={customModelId} onChange={(id) => onChange('customModelId', id)} />}
      {editing ? (
        <GlossaryEditor
          glossaries={glossaries}
          onSaved={(id) => {
            reload();
            onChange('glossaryId', id);
          }}
          onClose={() => setEditing(false)}
        />
      ) : (
        <button type="button" className="link" onClick={() => setEditing(true)}>
          {glossaries.length > 0 ? 'Edit glossaries…' : 'Make a glossary…'}
        </button>
      )}
    </>
  );
}

function ChoiceSelect(props: { label: string; items: AccountChoice[]; value: Id | null; onChange: (id: Id | null) => void }) {
  const id = useId();
  return (
    <div className="language-select">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} value={props.value === null ? '' : String(props.value)} onChange={(e) => props.onChange(props.items.find((i) => String(i.id) === e.target.value)?.id ?? null)}>
        <option value="">None</option>
        {props.items.map((i) => (
          <option key={String(i.id)} value={String(i.id)}>
            {i.language ? `${i.name} (${i.language})` : i.name}
          </option>
        ))}
      </select>
    </div>
  );
}
