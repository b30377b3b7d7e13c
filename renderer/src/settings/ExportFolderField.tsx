import { useId } from 'react';
import { hasNativeDialogs } from '../lib/nativeDialogs';
import { useFolderChooser } from '../lib/useFolderChooser';
import { useDraft } from '../lib/useDraft';

/**
 * The export folder: a path field, with "Choose…" for the native folder dialog (the Electron
 * app) or the folder browser (browser mode, where exports themselves are downloads).
 */
export function ExportFolderField({ value, onSave }: { value: string | null; onSave: (folder: string | null) => Promise<void> }) {
  const id = useId();
  const [draft, setDraft] = useDraft(value ?? '');
  const native = hasNativeDialogs();
  const commit = () => {
    const next = draft.trim() || null;
    if (next !== value) void onSave(next);
  };
  const folders = useFolderChooser((path) => void onSave(path), 'Choose the export folder');
  return (
    <div className="field">
      <label htmlFor={id}>Export folder</label>
      <div className="path-row">
        <input
          id={id}
          value={draft}
          spellCheck={false}
          placeholder={native ? 'Ask each time' : 'Your browser’s downloads'}
          aria-describedby={`${id}-hint`}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => e.key === 'Enter' && commit()}
        />
        <button type="button" onClick={() => void folders.choose()}>
          Choose…
        </button>
      </div>
      <span id={`${id}-hint`} className="hint">
        {native ? 'Where the save dialog opens for exports.' : 'In the browser, exports are downloads; this folder is used by the desktop app and watch folders.'}
      </span>
      {folders.browser}
    </div>
  );
}
