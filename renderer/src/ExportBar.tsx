import { useState } from 'react';
import { ExportFormat } from '../../common/api';
import { call } from './bridge';

const LABELS: Record<ExportFormat, string> = { srt: 'SRT', vtt: 'WebVTT', sbv: 'SBV', ttml: 'TTML (IMSC)', stl: 'EBU STL', txt: 'Text', html: 'HTML', docx: 'Word (DOCX)', pdf: 'PDF' };

/** Renders an export from the local cache (works offline) and saves it as a download. */
export function ExportBar({ documentId }: { documentId: string; filename: string }) {
  const [format, setFormat] = useState<ExportFormat>('srt');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run() {
    setBusy(true);
    setError(null);
    try {
      const file = await call('export.render', { documentId, format, options: {} });
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      const url = URL.createObjectURL(new Blob([bytes], { type: file.mime }));
      const a = document.createElement('a');
      a.href = url;
      a.download = file.filename;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <span className="export">
      <select aria-label="Export format" value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)}>
        {ExportFormat.options.map((f) => (
          <option key={f} value={f}>{LABELS[f]}</option>
        ))}
      </select>
      <button onClick={run} disabled={busy}>{busy ? 'Exporting…' : 'Export'}</button>
      {error && <span className="error" role="alert">{error}</span>}
    </span>
  );
}
