import { useId, useState, type FormEvent } from 'react';
import type { ModelChoice, WatchProfile } from '../../../common/ipc';
import { EngineSelect } from '../imports/EngineSelect';
import { LanguageSelect } from '../imports/LanguageSelect';
import { AccountSelects } from '../imports/AccountSelects';
import { SpeechChecks } from '../imports/SpeechChecks';
import { useAction } from '../lib/useAction';
import { FormatChecks } from './FormatChecks';
const MODES: { value: WatchProfile['sessionMode']; label: string }[] = [
  { value: 'auto', label: 'Align when a same-named text or caption file sits beside the media' },
  { value: 'decode', label: 'Always transcribe the speech' },
  { value: 'align', label: 'Always align the same-named text file' },
];

/**
 * A watched folder's profile, edited in place on its card: language from the models list, how
 * each file is transcribed, the files written and where, and what happens to the source.
 */
export function WatchProfileForm(props: { profile: WatchProfile; models: ModelChoice[]; modelsError: string | null; folderPath: string; onSave: (p: WatchProfile) => Promise<void>; onCancel: () => void }) {
  const [p, setP] = useState<WatchProfile>(props.profile);
  const { busy, problem: error, setProblem: setError, run } = useAction();
  const dirId = useId();
  const set = <K extends keyof WatchProfile>(key: K, value: WatchProfile[K]) => {
    setP((now) => ({ ...now, [key]: value }));
    setError(null);
  };
  const formats = p.formats.map((f) => f.format);
  const model = props.models.find((m) => m.key === p.language);
  const problem = formats.length === 0 ? 'Choose at least one file to write.' : model && !model.supported ? `${model.name} cannot be transcribed on this service.` : p.output === 'folder' && !p.outputDir?.trim() ? 'Give the folder to write into.' : null;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (problem) return setError(problem);
    await run(() => props.onSave({ ...p, outputDir: p.output === 'folder' ? (p.outputDir?.trim() ?? null) : null }));
  }

  return (
    <form className="watch-profile" onSubmit={submit} aria-label={`Settings of ${props.folderPath}`}>
      <LanguageSelect models={props.models} error={props.modelsError} value={p.language} onChange={(key) => set('language', key)} chosenEngine={p.speechEngine} />
      <EngineSelect model={model} value={p.speechEngine} onChange={(engine) => set('speechEngine', engine)} />
      <fieldset className="column">
        <legend>How</legend>
        {MODES.map((m) => (
          <label key={m.value} className="check">
            <input type="radio" name={`mode-${props.folderPath}`} checked={p.sessionMode === m.value} onChange={() => set('sessionMode', m.value)} /> {m.label}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Options</legend>
        <SpeechChecks value={p} model={model} onChange={set} />
        <AccountSelects glossaryId={p.glossaryId} customModelId={p.customModelId} onChange={set} />
        <label className="check">
          <input type="checkbox" checked={p.subfolders} onChange={(e) => set('subfolders', e.target.checked)} /> Include subfolders
        </label>
      </fieldset>
      <FormatChecks chosen={formats} onChange={(chosen) => set('formats', chosen.map((format) => p.formats.find((o) => o.format === format) ?? { format, options: {} }))} />
      <fieldset className="column">
        <legend>Where</legend>
        <label className="check">
          <input type="radio" name={`out-${props.folderPath}`} checked={p.output === 'beside'} onChange={() => set('output', 'beside')} /> Beside the media
        </label>
        <label className="check">
          <input type="radio" name={`out-${props.folderPath}`} checked={p.output === 'folder'} onChange={() => set('output', 'folder')} /> Into a folder
        </label>
        {p.output === 'folder' && (
          <label htmlFor={dirId} className="out-dir">
            Output folder
            <input id={dirId} value={p.outputDir ?? ''} onChange={(e) => set('outputDir', e.target.value)} placeholder="transcripts (relative to the watched folder) or an absolute path" />
          </label>
        )}
        <label className="check">
          <input type="checkbox" checked={p.afterwards === 'move'} onChange={(e) => set('afterwards', e.target.checked ? 'move' : 'leave')} /> Move each source into done/ or failed/ afterwards
        </label>
        <label className="check">
          <input type="checkbox" checked={p.refreshOnEdit} onChange={(e) => set('refreshOnEdit', e.target.checked)} /> Rewrite the files when the transcript is edited
        </label>
      </fieldset>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={busy}>
          Save
        </button>
      </div>
    </form>
  );
}
