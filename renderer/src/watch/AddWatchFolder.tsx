import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ExportFormat } from '../../../common/api';
import type { ModelChoice, WatchFolder } from '../../../common/ipc';
import { call } from '../lib/bridge';
import { useAction } from '../lib/useAction';
import { LanguageSelect } from '../imports/LanguageSelect';
import { useFolderChooser } from '../lib/useFolderChooser';
import { usableLanguage } from '../imports/useModels';
import { FormatChecks } from './FormatChecks';

/**
 * Adds a folder: typed as a path or chosen (the native folder dialog in the app, the folder
 * browser in browser mode), with a language from the models list and the files to write.
 */
export function AddWatchFolder({ models, modelsError, onAdded }: { models: ModelChoice[]; modelsError: string | null; onAdded: (f: WatchFolder) => void }) {
  const [path, setPath] = useState('');
  const pathField = useRef<HTMLInputElement>(null);
  const [language, setLanguage] = useState('');
  const [formats, setFormats] = useState<ExportFormat[]>(['srt', 'txt']);
  const { busy, problem: error, setProblem: setError, run } = useAction();
  const pathId = useId();

  useEffect(() => setLanguage((now) => now || usableLanguage(models, navigator.language)), [models]);

  const folders = useFolderChooser(setPath, 'Choose the folder to watch');
  async function pick() {
    try {
      await folders.choose();
    } catch (err) {
      setError((err as Error).message);
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    await run(async () => {
      const folder = await call('watch.addFolder', { path: path.trim(), profile: { language, formats: formats.map((format) => ({ format })) } });
      setPath('');
      onAdded(folder);
    });
    // Added or refused, the Add button was disabled meanwhile and lost the focus: it goes back to the path.
    pathField.current?.focus();
  }

  return (
    <>
      <form className="watch-add" onSubmit={submit} aria-label="Add a watched folder">
        <div className="path-field">
          <label htmlFor={pathId}>Folder path</label>
          <div className="path-row">
            <input ref={pathField} id={pathId} value={path} onChange={(e) => setPath(e.target.value)} placeholder="/home/me/Recordings" required />
            <button type="button" onClick={() => void pick()}>
              Choose folder…
            </button>
          </div>
        </div>
        <LanguageSelect models={models} error={modelsError} value={language} onChange={setLanguage} compact />
        <FormatChecks chosen={formats} onChange={setFormats} />
        <button type="submit" disabled={busy || !path.trim() || !language || formats.length === 0}>
          Add folder
        </button>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
      </form>
      {folders.browser}
    </>
  );
}
