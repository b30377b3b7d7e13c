import { useEffect, useId, useState, type FormEvent } from 'react';
import { ExportFormat } from '../../../common/api';
import type { ModelChoice, WatchFolder } from '../../../common/ipc';
import { call } from '../lib/bridge';
import { LanguageSelect } from '../imports/LanguageSelect';
import { hasNativeDialogs, openNative } from '../imports/nativeDialogs';
import { usableLanguage } from '../imports/useModels';

const FORMATS = ExportFormat.options;

/**
 * Adds a folder: chosen with the native folder picker in the app, or typed as a path (browser
 * mode has no folder picker), with a language from the models list and the files to write.
 */
export function AddWatchFolder({ models, modelsError, onAdded }: { models: ModelChoice[]; modelsError: string | null; onAdded: (f: WatchFolder) => void }) {
  const [path, setPath] = useState('');
  const [language, setLanguage] = useState('');
  const [formats, setFormats] = useState<ExportFormat[]>(['srt', 'txt']);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const pathId = useId();

  useEffect(() => setLanguage((now) => now || usableLanguage(models, navigator.language)), [models]);
  const toggle = (f: ExportFormat) => setFormats((now) => (now.includes(f) ? now.filter((x) => x !== f) : FORMATS.filter((x) => now.includes(x) || x === f)));

  async function pick() {
    try {
      const paths = await openNative('folder', false);
      if (paths?.[0]) setPath(paths[0]);
    } catch (err) {
      setError((err as Error).message);
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const folder = await call('watch.addFolder', { path: path.trim(), profile: { language, formats: formats.map((format) => ({ format })) } });
      setPath('');
      onAdded(folder);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="watch-add" onSubmit={submit} aria-label="Add a watched folder">
      <div className="path-field">
        <label htmlFor={pathId}>Folder path</label>
        <div className="path-row">
          <input id={pathId} value={path} onChange={(e) => setPath(e.target.value)} placeholder="/home/me/Recordings" required />
          {hasNativeDialogs() && (
            <button type="button" onClick={() => void pick()}>
              Choose folder…
            </button>
          )}
        </div>
      </div>
      <LanguageSelect models={models} error={modelsError} value={language} onChange={setLanguage} compact />
      <fieldset className="formats">
        <legend>Write</legend>
        {FORMATS.map((f) => (
          <label key={f} className="check">
            <input type="checkbox" checked={formats.includes(f)} onChange={() => toggle(f)} /> {f.toUpperCase()}
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={busy || !path.trim() || !language || formats.length === 0}>
        Add folder
      </button>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
