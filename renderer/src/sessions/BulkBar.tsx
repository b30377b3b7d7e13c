import { useEffect, useState } from 'react';
import { ExportFormat } from '../../../common/api';
import { call, subscribe } from '../lib/bridge';
import { hasNativeDialogs } from '../lib/nativeDialogs';
import { useFolderChooser } from '../lib/useFolderChooser';
import { ConfirmDialog, Dialog } from '../ui/Dialog';
import { FORMAT_LABELS } from './formats';
import { useOnline } from '../lib/useSyncState';
import { deletedWhere } from './deletedWhere';

/** What to do with the selected sessions: delete them all (asked first) or export them all in one format. */
export function BulkBar({ ids, onDone }: { ids: string[]; onDone: () => void }) {
  const [asking, setAsking] = useState<'delete' | 'export' | null>(null);
  const [message, setMessage] = useState<{ text: string; error?: boolean } | null>(null);
  const n = ids.length;
  const noun = `${n} session${n === 1 ? '' : 's'}`;
  const online = useOnline();

  async function remove() {
    try {
      const r = await call('sessions.delete', { sessionIds: ids });
      setMessage({ text: `${r.deleted} deleted.` });
      onDone();
    } catch (e) {
      setMessage({ text: (e as Error).message, error: true });
    }
  }

  return (
    <div className="bulk-bar" role="region" aria-label="Selected sessions">
      <span>{noun} selected</span>
      <button type="button" onClick={() => setAsking('export')}>Export…</button>
      <button type="button" className="danger" onClick={() => setAsking('delete')}>Delete…</button>
      <button type="button" className="link" onClick={onDone}>Clear</button>
      {message && <span className={message.error ? 'error' : 'muted'} role="status">{message.text}</span>}
      {asking === 'delete' && (
        <ConfirmDialog
          title={`Delete ${noun}?`}
          message={`${noun === '1 session' ? 'This session and its documents are' : `These ${noun} and their documents are`} ${deletedWhere(online)}. This cannot be undone.`}
          confirmLabel={`Delete ${noun}`}
          danger
          onClose={() => setAsking(null)}
          onConfirm={() => void remove()}
        />
      )}
      {asking === 'export' && <BulkExportDialog ids={ids} onClose={() => setAsking(null)} />}
    </div>
  );
}

function BulkExportDialog({ ids, onClose }: { ids: string[]; onClose: () => void }) {
  const [format, setFormat] = useState<ExportFormat>('srt');
  const [folder, setFolder] = useState('');
  const native = hasNativeDialogs();
  const [progress, setProgress] = useState<{ done: number; total: number; label: string } | null>(null);
  const [result, setResult] = useState<{ written: string[]; skipped: { sessionId: string; reason: string }[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [progressId] = useState(() => `bulk-${Math.random().toString(36).slice(2, 10)}`);

  useEffect(() => subscribe('export.progress', (p) => p.id === progressId && setProgress(p)), [progressId]);

  const folders = useFolderChooser(setFolder, 'Export into the folder');
  async function choose() {
    try {
      await folders.choose();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  async function run() {
    setError(null);
    setResult(null);
    try {
      setResult(await call('export.bulk', { sessionIds: ids, format, folder: folder.trim(), progressId }));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setProgress(null);
    }
  }

  const busy = progress !== null;
  return (
    <Dialog title={`Export ${ids.length} session${ids.length === 1 ? '' : 's'}`} onClose={onClose}>
      <div className="dialog-form">
        <label>
          Format
          <select value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)}>
            {ExportFormat.options.map((f) => (
              <option key={f} value={f}>{FORMAT_LABELS[f]}</option>
            ))}
          </select>
        </label>
        <label>
          Into the folder
          <span className="folder-pick">
            <input value={folder} onChange={(e) => setFolder(e.target.value)} placeholder="/home/me/Exports" aria-label="Folder" />
            <button type="button" onClick={() => void choose()}>Choose…</button>
          </span>
        </label>
        {busy && (
          <div className="progress-line">
            <progress max={progress.total || 1} value={progress.done} aria-label="Export progress" />
            <span className="muted small">{progress.label}</span>
          </div>
        )}
        {result && (
          <p role="status">
            {result.written.length} file{result.written.length === 1 ? '' : 's'} written to {folder}.
            {result.skipped.length > 0 && ` Skipped ${result.skipped.length}: ${result.skipped.slice(0, 3).map((s) => s.reason).join('; ')}${result.skipped.length > 3 ? '…' : ''}`}
          </p>
        )}
        {error && <p className="error" role="alert">{error}</p>}
        <div className="dialog-actions">
          {result && native && <button type="button" onClick={() => void call('shell.showInFolder', { path: result.written[0] ?? folder })}>Show in folder</button>}
          <button type="button" onClick={onClose}>{result ? 'Close' : 'Cancel'}</button>
          <button type="button" className="primary" onClick={() => void run()} disabled={busy || !folder.trim()}>{busy ? 'Exporting…' : 'Export'}</button>
        </div>
      </div>
      {folders.browser}
    </Dialog>
  );
}
