import { useEffect, useId, useState } from 'react';
import { ExportFormat } from '../../../common/api';
import { CAPTION_PROFILES } from '../../../common/transcript';
import { call, subscribe } from '../lib/bridge';
import type { DocumentSummary } from '../../../common/ipc';
import { FORMAT_LABELS as LABELS } from '../sessions/formats';
const CAPTION_FORMATS: ExportFormat[] = ['srt', 'vtt', 'sbv', 'ttml', 'stl'];
/** Voice tags exist in WebVTT (<v>) and TTML (ttm:agent); elsewhere names can only be a prefix. */
const VOICE_FORMATS: ExportFormat[] = ['vtt', 'ttml'];

type Speakers = 'default' | 'none' | 'prefix' | 'voice';

/** Hands the bytes to the browser as a download (browser mode: there is no save dialog). */
function download(file: { filename: string; mime: string; base64: string }) {
  const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: file.mime }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file.filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Renders an export from the local cache (works offline). In Electron it goes through the save
 * dialog (which remembers the last folder) and says where the file went, with "Show in folder";
 * in browser mode it is a download. The options
 * shown are the ones the chosen format uses: speaker names, timestamps for transcript formats, and
 * the caption rules that cut a transcript into cues for caption formats.
 */
export function ExportBar({ documentId, isTranscript, captions = null, saveFirst }: { documentId: string; isTranscript: boolean; captions?: DocumentSummary | null; saveFirst: (() => Promise<boolean>) | null }) {
  const [format, setFormat] = useState<ExportFormat>('srt');
  // From the transcript, a caption format can be the Captions tab as timed there, or the transcript
  // cut into captions afresh: two different files, so the choice is shown, never made silently.
  const [source, setSource] = useState<'captions' | 'transcript'>('transcript');
  const [speakers, setSpeakers] = useState<Speakers>('default');
  const [timestamps, setTimestamps] = useState<boolean | null>(null);
  const [profile, setProfile] = useState<string>('');
  const [showOptions, setShowOptions] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const [progressId] = useState(() => `export-${Math.random().toString(36).slice(2, 10)}`);
  useEffect(() => subscribe('export.progress', (p) => p.id === progressId && setProgress(p.label)), [progressId]);
  const isCaptionFormat = CAPTION_FORMATS.includes(format);
  const choosesSource = isTranscript && isCaptionFormat && captions !== null;
  const fromCaptions = choosesSource && source === 'captions';
  const exported = fromCaptions ? captions.id : documentId;
  const optionsId = useId();

  async function run() {
    setBusy(true);
    setError(null);
    try {
      // The export renders what is stored, so unsaved edits are saved first: it matches the screen.
      if (saveFirst && !fromCaptions && !(await saveFirst())) return;
      const options = {
        ...(speakers !== 'default' && !(speakers === 'voice' && !VOICE_FORMATS.includes(format)) ? { speakers } : {}),
        ...(!isCaptionFormat && timestamps !== null ? { timestamps } : {}),
        ...(isCaptionFormat && isTranscript && !fromCaptions && profile ? { profile } : {}),
      };
      setSaved(null);
      const stem = (await call('documents.get', { documentId: exported }))?.filename.replace(/\.[^.]+$/, '') || 'document';
      const place = await call('dialog.save', { defaultName: `${stem}.${format}`, purpose: 'export' }).catch(() => ({ supported: false, path: null }));
      if (place.supported) {
        if (!place.path) return; // cancelled
        const r = await call('export.toFile', { documentId: exported, format, options, path: place.path, progressId });
        setSaved(r.path);
      } else {
        setProgress(format === 'docx' || format === 'pdf' ? `Rendering ${LABELS[format]}…` : null);
        download(await call('export.render', { documentId: exported, format, options }));
      }
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
      setProgress(null);
    }
  }

  return (
    <span className="export">
      <select aria-label="Export format" value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)}>
        {ExportFormat.options.map((f) => (
          <option key={f} value={f}>{LABELS[f]}</option>
        ))}
      </select>
      {choosesSource && (
        // Short enough to read whole beside a video in a small window; the title says it in full.
        <select
          className="export-source"
          aria-label="Export from"
          value={source}
          onChange={(e) => setSource(e.target.value as 'captions' | 'transcript')}
          title={source === 'captions' ? 'The caption file gets the Captions tab as it is timed there' : 'The caption file is this transcript cut into captions afresh'}
        >
          <option value="transcript">Cut from transcript</option>
          <option value="captions">Captions tab timing</option>
        </select>
      )}
      <button type="button" className="icon" aria-label="Format options" aria-expanded={showOptions} aria-controls={showOptions ? optionsId : undefined} title="Format options" onClick={() => setShowOptions(!showOptions)}>
        <span aria-hidden="true">⚙</span>
      </button>
      <button type="button" onClick={run} disabled={busy} title={saveFirst ? 'Saves your edits, then exports' : undefined}>
        {busy ? 'Exporting…' : 'Export'}
      </button>
      {showOptions && (
        <fieldset id={optionsId} className="popover export-options">
          <legend>Options for {LABELS[format]}</legend>
          <label>
            Speaker names
            <select value={speakers} onChange={(e) => setSpeakers(e.target.value as Speakers)}>
              <option value="default">Format default</option>
              <option value="none">Leave out</option>
              <option value="prefix">“Name:” where a turn starts</option>
              {VOICE_FORMATS.includes(format) && <option value="voice">Voice tags</option>}
            </select>
          </label>
          {!isCaptionFormat && (
            <label>
              Timestamps
              <select value={timestamps === null ? 'default' : String(timestamps)} onChange={(e) => setTimestamps(e.target.value === 'default' ? null : e.target.value === 'true')}>
                <option value="default">Format default</option>
                <option value="true">Show</option>
                <option value="false">Leave out</option>
              </select>
            </label>
          )}
          {isCaptionFormat && isTranscript && !fromCaptions && (
            <label>
              Caption rules
              <select value={profile} onChange={(e) => setProfile(e.target.value)}>
                <option value="">Default (Netflix-like)</option>
                {Object.values(CAPTION_PROFILES).map((p) => (
                  <option key={p.id} value={p.id}>{p.name}</option>
                ))}
              </select>
            </label>
          )}
        </fieldset>
      )}
      {busy && progress && (
        <span className="export-progress" role="status">
          <progress aria-label="Export progress" /> {progress}
        </span>
      )}
      {saved && (
        <span className="export-saved" role="status">
          Saved to <span className="path" title={saved}>{saved}</span>
          <button type="button" className="link" onClick={() => void call('shell.showInFolder', { path: saved })}>Show in folder</button>
        </span>
      )}
      {error && <span className="error" role="alert">{error}</span>}
    </span>
  );
}
