import { useState, type FormEvent } from 'react';
import { ExportFormat } from '../../../common/api';
import type { WatchFolder } from '../../../common/ipc';
import { call } from '../lib/bridge';

const FORMATS = ExportFormat.options;

/** Adds a folder by path (the web bridge has no folder picker) with a language and the files to write. */
export function AddWatchFolder({ onAdded }: { onAdded: (f: WatchFolder) => void }) {
  const [path, setPath] = useState('');
  const [language, setLanguage] = useState('en');
  const [formats, setFormats] = useState<ExportFormat[]>(['srt', 'txt']);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const toggle = (f: ExportFormat) => setFormats((now) => (now.includes(f) ? now.filter((x) => x !== f) : FORMATS.filter((x) => now.includes(x) || x === f)));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const folder = await call('watch.addFolder', { path: path.trim(), profile: { language: language.trim() || 'en', formats: formats.map((format) => ({ format })) } });
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
      <label>
        Folder path
        <input value={path} onChange={(e) => setPath(e.target.value)} placeholder="/home/me/Recordings" required />
      </label>
      <label className="lang">
        Language
        <input value={language} onChange={(e) => setLanguage(e.target.value)} maxLength={32} required />
      </label>
      <fieldset className="formats">
        <legend>Write</legend>
        {FORMATS.map((f) => (
          <label key={f} className="check">
            <input type="checkbox" checked={formats.includes(f)} onChange={() => toggle(f)} /> {f.toUpperCase()}
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={busy || !path.trim() || formats.length === 0}>
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
