import { useId, useState } from 'react';
import { ExportFormat } from '../../../common/api';
import { CAPTION_PROFILES } from '../../../common/transcript';
import { call } from '../lib/bridge';

const LABELS: Record<ExportFormat, string> = { srt: 'SRT', vtt: 'WebVTT', sbv: 'SBV', ttml: 'TTML (IMSC)', stl: 'EBU STL', txt: 'Text', html: 'HTML', docx: 'Word (DOCX)', pdf: 'PDF' };
const CAPTION_FORMATS: ExportFormat[] = ['srt', 'vtt', 'sbv', 'ttml', 'stl'];
/** Voice tags exist in WebVTT (<v>) and TTML (ttm:agent); elsewhere names can only be a prefix. */
const VOICE_FORMATS: ExportFormat[] = ['vtt', 'ttml'];

type Speakers = 'default' | 'none' | 'prefix' | 'voice';

/**
 * Renders an export from the local cache (works offline) and hands it over as a download. The options
 * shown are the ones the chosen format uses: speaker names, timestamps for transcript formats, and
 * the caption rules that cut a transcript into cues for caption formats.
 */
export function ExportBar({ documentId, isTranscript, saveFirst }: { documentId: string; isTranscript: boolean; saveFirst: (() => Promise<boolean>) | null }) {
  const [format, setFormat] = useState<ExportFormat>('srt');
  const [speakers, setSpeakers] = useState<Speakers>('default');
  const [timestamps, setTimestamps] = useState<boolean | null>(null);
  const [profile, setProfile] = useState<string>('');
  const [showOptions, setShowOptions] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const isCaptionFormat = CAPTION_FORMATS.includes(format);
  const optionsId = useId();

  async function run() {
    setBusy(true);
    setError(null);
    try {
      // The export renders what is stored, so unsaved edits are saved first: it matches the screen.
      if (saveFirst && !(await saveFirst())) return;
      const options = {
        ...(speakers !== 'default' && !(speakers === 'voice' && !VOICE_FORMATS.includes(format)) ? { speakers } : {}),
        ...(!isCaptionFormat && timestamps !== null ? { timestamps } : {}),
        ...(isCaptionFormat && isTranscript && profile ? { profile } : {}),
      };
      const file = await call('export.render', { documentId, format, options });
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
          {isCaptionFormat && isTranscript && (
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
      {error && <span className="error" role="alert">{error}</span>}
    </span>
  );
}
