import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { DEFAULT_SETTINGS, type ImportItem, type ImportSource, type TranscriptionOptions } from '../../../common/ipc';
import { call } from '../lib/bridge';
import { useSettings } from '../settings/useSettings';
import { Dialog } from '../ui/Dialog';
import { bytes } from '../watch/watchFormat';
import { AccountSelects } from './AccountSelects';
import { EngineSelect } from './EngineSelect';
import { LanguageSelect } from './LanguageSelect';
import { openNative } from '../lib/nativeDialogs';
import { pickedFromFile, pickedFromPath, pickedKey, type Picked } from './pickedFiles';
import { SpeechChecks } from './SpeechChecks';
import { stagePicked } from './stage';
import { COMPANION_ACCEPT, MEDIA_ACCEPT } from './accept';
import { usableLanguage, useModels } from './useModels';

type Mode = TranscriptionOptions['mode'];
type Choices = Omit<TranscriptionOptions, 'companion'>;

/** The submit button says what happens in the chosen mode. */
const SUBMIT_LABEL: Record<Mode, string> = { decode: 'Transcribe', align: 'Align', upload: 'Upload' };
const MODES: { mode: Mode; label: string; hint: string }[] = [
  { mode: 'decode', label: 'Transcribe the speech', hint: 'The service recognises the words.' },
  { mode: 'align', label: 'Align a text I have', hint: 'Places your text file on the recording, word by word.' },
  { mode: 'upload', label: 'Upload finished captions or a transcript', hint: 'No recognition: the file you give becomes the document.' },
];

/**
 * The New transcription dialog: the files (or a URL), the language by name, the mode with its
 * companion file, and the options, remembered as the next defaults (settings' `transcription`).
 * On submit it stages each file to main, then queues them all with imports.add; a refusal stays
 * in the dialog, in words.
 */
export function NewTranscriptionDialog(props: { files: Picked[]; leftOut: number; /** A caption file opened from the system: upload mode with it given, the recording left to choose. */ captions?: Picked | null; onFiles: (files: Picked[]) => void; onClose: () => void; onQueued: (items: ImportItem[]) => void }) {
  const { files, onFiles } = props;
  const languages = useModels();
  const opened: Partial<Choices> = props.captions ? { mode: 'upload' } : {};
  const [choices, setChoices] = useState<Choices>({ ...DEFAULT_SETTINGS.transcription, language: '', ...opened });
  const [url, setUrl] = useState('');
  const [companion, setCompanion] = useState<Picked | null>(props.captions ?? null);
  const [busy, setBusy] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  // Closed while files were still being staged: nothing is queued then.
  const open = useRef(true);
  useEffect(
    () => () => {
      open.current = false;
    },
    [],
  );
  const companionInput = useRef<HTMLInputElement>(null);
  // A refusal shows below the options: brought into view, or a small window hides why nothing happened.
  const errorRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (error) errorRef.current?.scrollIntoView({ block: 'nearest' });
  }, [error]);
  const ids = { url: useId(), files: useId(), companion: useId(), mode: useId() };
  // Opened with a caption file: its row is what the person looks for, and the recording to choose.
  const companionRow = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (props.captions) companionRow.current?.scrollIntoView({ block: 'nearest' });
  }, []);

  // The last choices, from settings (kept by main, so the Electron app and browser mode agree), taken once.
  const saved = useSettings();
  const remembered = saved.settings?.transcription.language ?? (saved.error === null ? null : '');
  const settingsRead = saved.settings !== null;
  useEffect(() => {
    // The mode is not taken: it belongs to the files of one submission (an upload mode left from last
    // time would turn the next dropped recording into a caption upload without a word); a file the
    // system opened brings its own.
    if (saved.settings) setChoices((now) => ({ ...saved.settings!.transcription, mode: now.mode, language: now.language, ...opened }));
  }, [settingsRead]);
  // Once both the list and the remembered choice are in, start on a language that can be chosen.
  useEffect(() => {
    if (remembered === null || languages.models.length === 0) return;
    setChoices((now) => (now.language ? now : { ...now, language: usableLanguage(languages.models, remembered) }));
  }, [remembered, languages.models]);

  const model = languages.models.find((m) => m.key === choices.language);
  const set = <K extends keyof Choices>(key: K, value: Choices[K]) => {
    setChoices((now) => ({ ...now, [key]: value }));
    setError(null);
  };
  const addFiles = (more: Picked[]) => {
    const known = new Set(files.map(pickedKey));
    onFiles([...files, ...more.filter((p) => !known.has(pickedKey(p)))]);
    setError(null);
  };

  async function chooseFiles() {
    const paths = await openNative('media', true).catch((e: Error) => (setError(e.message), []));
    if (paths === null) fileInput.current?.click();
    else addFiles(paths.map(pickedFromPath));
  }
  async function chooseCompanion() {
    const paths = await openNative(choices.mode === 'align' ? 'text' : 'captions', false).catch((e: Error) => (setError(e.message), []));
    if (paths === null) companionInput.current?.click();
    else if (paths[0]) setCompanion(pickedFromPath(paths[0]));
  }

  const sourceCount = files.length + (url.trim() ? 1 : 0);
  // Where no engine can be chosen, the service's choice goes (and the list says why).
  const engineOff = choices.mode === 'upload' ? 'Your file becomes the document as it is: no engine runs.' : url.trim() ? 'The service picks the engine for a URL it downloads.' : null;
  const problem =
    sourceCount === 0
      ? 'Choose a file, drop one here, or give a URL.'
      : !model
        ? 'Choose a language.'
        : !model.supported
          ? `${model.name} cannot be transcribed on this service.`
          : choices.mode !== 'decode' && sourceCount > 1
            ? `${choices.mode === 'align' ? 'Aligning' : 'Uploading a document'} works on one recording at a time (the file you give belongs to one recording).`
            : choices.mode !== 'decode' && !companion
              ? choices.mode === 'align'
                ? 'Choose the text file to align.'
                : 'Choose the caption or transcript file.'
              : null;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (problem || busy) return;
    setError(null);
    try {
      const sources: ImportSource[] = [];
      for (const [i, p] of files.entries()) {
        if (p.kind === 'file') setBusy(`Preparing ${p.name}${files.length > 1 ? ` (${i + 1} of ${files.length})` : ''}…`);
        setProgress(p.kind === 'file' ? { sent: 0, total: p.size } : null);
        sources.push(await stagePicked(p, (sent, total) => setProgress({ sent, total })));
      }
      if (url.trim()) sources.push({ kind: 'url', url: url.trim() });
      let staged = null;
      if (choices.mode !== 'decode' && companion) {
        setBusy(`Preparing ${companion.name}…`);
        staged = await stagePicked(companion);
      }
      if (!open.current) return;
      setProgress(null);
      setBusy('Queueing…');
      const options: TranscriptionOptions = { ...choices, speechEngine: engineOff ? null : choices.speechEngine, companion: staged };
      const { items } = await call('imports.add', { sources, options });
      // Remembered for next time; a failure to remember does not undo the queueing.
      await call('settings.set', { transcription: choices }).catch(() => undefined);
      props.onQueued(items);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(null);
      setProgress(null);
    }
  }

  const companionLabel = choices.mode === 'align' ? 'Text to align' : 'Caption or transcript file';
  return (
    <Dialog title="New transcription" onClose={props.onClose}>
      <form className="dialog-form new-transcription-form" onSubmit={submit} aria-busy={busy !== null}>
        <div className="picked">
          <div className="picked-head">
            <span id={ids.files} className="label">
              {files.length === 0 ? 'Files' : `${files.length} ${files.length === 1 ? 'file' : 'files'}`}
            </span>
            <button type="button" onClick={() => void chooseFiles()} disabled={busy !== null}>
              {files.length ? 'Add files…' : 'Choose files…'}
            </button>
          </div>
          {files.length > 0 ? (
            <ul className="picked-list" aria-labelledby={ids.files}>
              {files.map((p) => (
                <li key={pickedKey(p)}>
                  <span className="name" title={p.kind === 'path' ? p.path : p.name}>
                    {p.name}
                  </span>
                  {p.size !== null && <span className="muted small">{bytes(p.size)}</span>}
                  <button type="button" className="link" aria-label={`Remove ${p.name}`} disabled={busy !== null} onClick={() => onFiles(files.filter((x) => x !== p))}>
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted small drop-hint">Choose files, or drop files or folders anywhere on the window.</p>
          )}
          {props.leftOut > 0 && (
            <p className="muted small">
              {props.leftOut} {props.leftOut === 1 ? 'file' : 'files'} in the dropped folders did not look like audio or video and {props.leftOut === 1 ? 'was' : 'were'} left out.
            </p>
          )}
          <input
            ref={fileInput}
            type="file"
            multiple
            accept={MEDIA_ACCEPT}
            hidden
            aria-label="Media files"
            onChange={(e) => {
              addFiles(Array.from(e.currentTarget.files ?? []).map(pickedFromFile));
              e.currentTarget.value = '';
            }}
          />
        </div>

        <label htmlFor={ids.url}>Or a media URL</label>
        <input id={ids.url} type="url" value={url} placeholder="https://example.com/recording.mp4" onChange={(e) => { setUrl(e.target.value); setError(null); }} aria-describedby={`${ids.url}-hint`} />
        <span id={`${ids.url}-hint`} className="muted small">
          The service downloads it itself.
        </span>

        <LanguageSelect models={languages.models} loading={languages.loading} error={languages.error} value={choices.language} onChange={(key) => set('language', key)} chosenEngine={engineOff ? null : choices.speechEngine} />
        <EngineSelect model={model} value={choices.speechEngine} onChange={(engine) => set('speechEngine', engine)} disabled={engineOff} />
        {languages.stale && <span className="muted small">Offline: the languages as last read from the service.</span>}

        <fieldset className="modes" aria-describedby={ids.mode}>
          <legend>What to do</legend>
          {MODES.map((m) => (
            <label key={m.mode} className="check mode">
              <input type="radio" name="mode" value={m.mode} checked={choices.mode === m.mode} onChange={() => set('mode', m.mode)} />
              <span>
                {m.label}
                <span className="muted small"> — {m.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {choices.mode !== 'decode' && (
          <div className="companion" ref={companionRow}>
            <span className="label" id={ids.companion}>
              {companionLabel}
            </span>
            <span className={companion ? 'name' : 'muted small'}>{companion ? companion.name : 'none chosen'}</span>
            <button type="button" onClick={() => void chooseCompanion()} aria-describedby={ids.companion} disabled={busy !== null}>
              Choose…
            </button>
            <input
              ref={companionInput}
              type="file"
              hidden
              accept={COMPANION_ACCEPT[choices.mode]}
              aria-label={companionLabel}
              onChange={(e) => {
                const f = e.currentTarget.files?.[0];
                if (f) setCompanion(pickedFromFile(f));
                e.currentTarget.value = '';
              }}
            />
          </div>
        )}

        <fieldset className="options">
          <legend>Options</legend>
          <SpeechChecks value={choices} model={model} onChange={set} unused={choices.mode === 'upload' ? 'Your file becomes the document as it is: there is no recognition to tell speakers apart or add punctuation.' : null} />
          <label className="check">
            <input type="checkbox" checked={choices.keepMedia} onChange={(e) => set('keepMedia', e.target.checked)} /> Keep the media on the service
          </label>
          <AccountSelects glossaryId={choices.glossaryId} customModelId={choices.customModelId} onChange={set} />
        </fieldset>

        {busy && (
          <div className="staging" role="status">
            <span className="small">{busy}</span>
            {progress && progress.total > 0 && <progress max={progress.total} value={progress.sent} aria-label="Preparing the file" />}
          </div>
        )}
        {error && (
          <p className="error" role="alert" ref={errorRef}>
            {error}
          </p>
        )}
        {!error && problem && sourceCount > 0 && <p className="muted small">{problem}</p>}
        <div className="dialog-actions">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={problem !== null || busy !== null}>
            {SUBMIT_LABEL[choices.mode]}
            {sourceCount > 1 ? ` ${sourceCount} files` : ''}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
