import { useId, useState, type ReactNode } from 'react';
import { GIB, type Settings, type SettingsPatch, type ThemeChoice } from '../../../common/ipc';
import { CAPTION_PROFILES } from '../../../common/transcript/captions';
import { call } from '../lib/bridge';
import { useDraft } from '../lib/useDraft';
import { Dialog } from '../ui/Dialog';
import { LanguageSelect } from '../imports/LanguageSelect';
import { useModels } from '../imports/useModels';
import { ExportFolderField } from './ExportFolderField';
import { SpeechModels } from './SpeechModels';
import { useSettings } from './useSettings';
import './settings.css';

const THEMES: { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'Same as the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/**
 * Preferences: every change is saved as it is made (settings.set), and a refusal says why beside
 * the form. Text fields save when they lose focus or on Enter.
 */
export function Preferences({ onClose }: { onClose: () => void }) {
  const { settings, error: readError, show } = useSettings();
  const [saveProblem, setProblem] = useState<string | null>(null);
  const problem = saveProblem ?? readError;
  const [status, setStatus] = useState('');
  const save = (patch: SettingsPatch) =>
    call('settings.set', patch).then(
      (s) => {
        show(s);
        setProblem(null);
        setStatus('Saved.');
      },
      (e: Error) => {
        setProblem(inWords(e.message));
        setStatus('');
      },
    );

  return (
    <Dialog title="Preferences" onClose={onClose} className="preferences">
      {!settings ? (
        <p>{problem ?? 'Loading…'}</p>
      ) : (
        <form className="preferences-form" onSubmit={(e) => e.preventDefault()}>
          <Section title="Appearance">
            <div role="radiogroup" aria-label="Theme" className="choices">
              {THEMES.map((t) => (
                <label key={t.value} className="check">
                  <input type="radio" name="theme" value={t.value} checked={settings.theme === t.value} onChange={() => void save({ theme: t.value })} /> {t.label}
                </label>
              ))}
            </div>
          </Section>
          <Section title="Speech models">
            <SpeechModels />
          </Section>
          <Section title="New transcriptions">
            <LanguageField value={settings.transcription.language} onSave={(language) => save({ transcription: { ...settings.transcription, language } })} />
            <label className="check">
              <input type="checkbox" checked={settings.transcription.diarization} onChange={(e) => void save({ transcription: { ...settings.transcription, diarization: e.target.checked } })} /> Tell speakers apart
            </label>
            <label className="check">
              <input type="checkbox" checked={settings.transcription.punctuation} onChange={(e) => void save({ transcription: { ...settings.transcription, punctuation: e.target.checked } })} /> Add punctuation
            </label>
            <label className="check">
              <input type="checkbox" checked={settings.transcription.keepMedia} onChange={(e) => void save({ transcription: { ...settings.transcription, keepMedia: e.target.checked } })} /> Keep the media on the service for playback
            </label>
          </Section>
          <Section title="Exports and captions">
            <ExportFolderField value={settings.exportFolder} onSave={(exportFolder) => save({ exportFolder })} />
            <CaptionProfileField value={settings.captionProfile} onSave={(captionProfile) => save({ captionProfile })} />
          </Section>
          <Section title="Playback and editing">
            <CacheSizeField bytes={settings.mediaCacheBytes} onSave={(mediaCacheBytes) => save({ mediaCacheBytes })} />
            <ThresholdField value={settings.lowConfidenceThreshold} onSave={(lowConfidenceThreshold) => save({ lowConfidenceThreshold })} />
          </Section>
        </form>
      )}
      {problem && settings && (
        <p role="alert" className="preferences-problem">
          {problem}
        </p>
      )}
      <div className="dialog-actions">
        <span role="status" className="preferences-status">
          {status}
        </span>
        <button type="button" className="primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}

/**
 * A refusal in the words of the form: the schema names fields by key and, for the two shown in
 * other units (GB, %), by its own unit, so those get a sentence of their own.
 */
const FIELD_MESSAGES: Partial<Record<keyof Settings, string>> = {
  mediaCacheBytes: 'The media cache size is a number of GB from 0 to 1024.',
  lowConfidenceThreshold: 'The low-confidence mark is a percentage from 0 to 100.',
};
const FIELD_NAMES: Partial<Record<keyof Settings, string>> = { exportFolder: 'Export folder', transcription: 'Language', captionProfile: 'Caption profile' };
function inWords(message: string): string {
  const key = /^(?:Not saved: )?(\w+)/.exec(message)?.[1] as keyof Settings | undefined;
  if (key && FIELD_MESSAGES[key]) return `Not saved. ${FIELD_MESSAGES[key]}`;
  const named = message.replace(/^Not saved: /, '').replace(/\b(\w+)(?:\.\w+)*: /g, (all, k: string) => (k in FIELD_NAMES ? `${FIELD_NAMES[k as keyof Settings]}: ` : all));
  return `Not saved. ${named}`;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="preferences-section">
      <legend>{title}</legend>
      {children}
    </fieldset>
  );
}

function LanguageField({ value, onSave }: { value: string; onSave: (language: string) => Promise<void> }) {
  const id = useId();
  const languages = useModels();
  const [draft, setDraft] = useDraft(value);
  // The service's languages when it can list them (cached offline); a text field when it cannot.
  if (languages.loading || languages.models.length > 0) {
    return <LanguageSelect id={id} models={languages.models} loading={languages.loading} value={value} onChange={(key) => void onSave(key)} />;
  }
  return (
    <div className="field">
      <label htmlFor={id}>Language</label>
      <input
        id={id}
        value={draft}
        spellCheck={false}
        aria-describedby={`${id}-hint`}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => draft !== value && void onSave(draft.trim())}
        onKeyDown={(e) => e.key === 'Enter' && draft !== value && void onSave(draft.trim())}
      />
      <span id={`${id}-hint`} className="hint">
        A language code such as en-US, de-DE or fr-FR.
      </span>
    </div>
  );
}

function CaptionProfileField({ value, onSave }: { value: Settings['captionProfile']; onSave: (v: Settings['captionProfile']) => Promise<void> }) {
  const id = useId();
  const p = CAPTION_PROFILES[value];
  return (
    <div className="field">
      <label htmlFor={id}>Caption profile</label>
      <select id={id} value={value} aria-describedby={`${id}-hint`} onChange={(e) => void onSave(e.target.value as Settings['captionProfile'])}>
        {Object.values(CAPTION_PROFILES).map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <span id={`${id}-hint`} className="hint">
        {p.maxLines === 1 ? 'One line' : `${p.maxLines} lines`} of up to {p.maxCharsPerLine} characters, at most {p.maxCps} characters a second, {seconds(p.minDurationMs)}–{seconds(p.maxDurationMs)} s on screen.
      </span>
    </div>
  );
}

/** 833 -> "0.8", 7000 -> "7". */
const seconds = (ms: number) => String(Math.round(ms / 100) / 10);

function CacheSizeField({ bytes, onSave }: { bytes: number; onSave: (bytes: number) => Promise<void> }) {
  const id = useId();
  const shown = String(Math.round((bytes / GIB) * 100) / 100);
  const [draft, setDraft] = useDraft(shown);
  const commit = () => {
    if (draft === shown) return;
    const gb = Number(draft.replace(',', '.'));
    // Not a number: let the schema refuse it with its reason (NaN is not an integer).
    void onSave(Number.isFinite(gb) && draft.trim() !== '' ? Math.round(gb * GIB) : Number.NaN);
  };
  return (
    <div className="field">
      <label htmlFor={id}>Media cache size (GB)</label>
      <input id={id} type="number" inputMode="decimal" min={0} max={1024} step={0.5} value={draft} aria-describedby={`${id}-hint`} onChange={(e) => setDraft(e.target.value)} onBlur={commit} onKeyDown={(e) => e.key === 'Enter' && commit()} />
      <span id={`${id}-hint`} className="hint">
        Played media is kept on this computer up to this size; the oldest goes first. 0 keeps none.
      </span>
    </div>
  );
}

function ThresholdField({ value, onSave }: { value: number; onSave: (v: number) => Promise<void> }) {
  const id = useId();
  const shown = String(Math.round(value * 100));
  const [draft, setDraft] = useDraft(shown);
  const commit = () => draft !== shown && void onSave(draft.trim() === '' ? Number.NaN : Number(draft) / 100);
  return (
    <div className="field">
      <label htmlFor={id}>Mark words recognised with less confidence than (%)</label>
      <input id={id} type="number" min={0} max={100} step={5} value={draft} onChange={(e) => setDraft(e.target.value)} onBlur={commit} onKeyDown={(e) => e.key === 'Enter' && commit()} />
    </div>
  );
}
