/**
 * The model manager: the speech engines installed on the service and the Whisper models a person
 * can download (size, languages, speed measured here once installed), with download, pause,
 * resume, cancel and delete, and "use a model file I already have". Polls while a download runs,
 * so the progress and every state line follow the service.
 */
import { useCallback, useEffect, useId, useState } from 'react';
import type { SpeechModel } from '../../../common/api/speech-models';
import type { SpeechModelsOutcome } from '../../../common/ipc';
import { call } from '../lib/bridge';
import './speech-models.css';

const size = (bytes: number) => (bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : bytes >= 10 * 1024 ** 2 ? `${Math.round(bytes / 1024 ** 2)} MB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`);
const languages = (m: SpeechModel) => (m.languages === 'multilingual' ? 'Many languages' : m.languages.length === 1 && m.languages[0] === 'en' ? 'English only' : m.languages.join(', '));
const percent = (m: SpeechModel) => Math.floor((100 * m.download.received) / Math.max(1, m.download.total));

/** What the model's row says about its state, in words. */
/** What transcriptions run on now, in words: a model, the built-in engine, or nothing yet. */
function enginesNotice(engines: readonly { id: string; label: string }[]): string {
  const builtIn = engines.some((e) => e.id === 'pocketsphinx');
  const model = engines.find((e) => e.id !== 'pocketsphinx');
  if (model) return `Transcriptions run on ${model.label}${builtIn ? '; the built-in engine stays available' : ''}.`;
  if (builtIn) return 'Transcriptions run on the built-in engine (pocketsphinx): English only, no punctuation. A Whisper model transcribes many languages with punctuation; it is downloaded once, only when you ask.';
  return 'No speech engine is installed on this computer yet, so nothing can be transcribed: download a Whisper model below (many languages, with punctuation), or use a model file you already have.';
}

export function modelState(m: SpeechModel): string {
  if (m.installed) return m.speed_rtf === null ? 'Installed · measuring its speed on this computer…' : `Installed · ${speed(m.speed_rtf)}`;
  switch (m.download.state) {
    case 'downloading':
      return `Downloading… ${percent(m)}% of ${size(m.download.total)}`;
    case 'verifying':
      return 'Checking the download against its published checksum…';
    case 'paused':
      return `Paused at ${percent(m)}% (${size(m.download.received)} of ${size(m.download.total)})${m.download.error ? ` · stopped: ${m.download.error}` : ''}`;
    case 'failed':
      return `Download failed: ${m.download.error ?? 'unknown reason'}`;
    default:
      return 'Not installed';
  }
}

function speed(rtf: number): string {
  const times = 1 / Math.max(rtf, 0.001);
  return times >= 1 ? `about ${times >= 10 ? Math.round(times) : times.toFixed(1)}× faster than real time here` : `about ${(1 / times).toFixed(1)}× slower than real time here`;
}

export function SpeechModels() {
  const [outcome, setOutcome] = useState<SpeechModelsOutcome | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [path, setPath] = useState('');
  const pathId = useId();
  const refresh = useCallback(() => call('speechModels.list', {}).then(setOutcome, (e: Error) => setProblem(e.message)), []);
  const act = (p: Promise<SpeechModelsOutcome>) =>
    p.then(
      (o) => {
        setOutcome(o);
        setProblem(null);
      },
      (e: Error) => setProblem(e.message),
    );
  useEffect(() => void refresh(), [refresh]);
  const busy = outcome?.available && outcome.list.models.some((m) => m.download.state === 'downloading' || m.download.state === 'verifying' || (m.installed && m.speed_rtf === null));
  useEffect(() => {
    if (!busy) return;
    const t = setInterval(() => void refresh(), 1000);
    return () => clearInterval(t);
  }, [busy, refresh]);

  if (!outcome) return <p className="hint">{problem ?? 'Loading the speech models…'}</p>;
  if (!outcome.available) return <p className="hint">{outcome.message}</p>;
  const { engines, free_bytes } = outcome.list;
  // Installed models and downloads under way or paused first: what needs a look is in view.
  const rank = (m: SpeechModel) => (m.installed ? 0 : m.download.state === 'idle' ? 2 : 1);
  const models = [...outcome.list.models].sort((a, b) => rank(a) - rank(b));
  return (
    <div className="speech-models">
      <p className="hint">
        {enginesNotice(engines)} {size(free_bytes)} free on this disk.
      </p>
      <ul className="speech-model-list">
        {models.map((m) => (
          <li key={m.name} className="speech-model" data-state={m.installed ? 'installed' : m.download.state}>
            <div className="speech-model-head">
              <strong>{m.label}</strong>
              <span className="hint">
                {size(m.bytes)} · {languages(m)}
              </span>
            </div>
            <div className="speech-model-state" aria-live="polite">
              {modelState(m)}
            </div>
            {(m.download.state === 'downloading' || m.download.state === 'paused') && !m.installed && <progress max={100} value={percent(m)} aria-label={`${m.label} download`} />}
            <div className="speech-model-actions">
              {m.installed ? (
                <button type="button" onClick={() => void act(call('speechModels.delete', { name: m.name }))}>
                  Delete
                </button>
              ) : m.download.state === 'downloading' ? (
                <>
                  <button type="button" onClick={() => void act(call('speechModels.pause', { name: m.name }))}>
                    Pause
                  </button>
                  <button type="button" onClick={() => void act(call('speechModels.cancel', { name: m.name }))}>
                    Cancel
                  </button>
                </>
              ) : m.download.state === 'paused' ? (
                <>
                  <button type="button" onClick={() => void act(call('speechModels.download', { name: m.name }))}>
                    Resume
                  </button>
                  <button type="button" onClick={() => void act(call('speechModels.cancel', { name: m.name }))}>
                    Cancel
                  </button>
                </>
              ) : m.download.state === 'verifying' ? null : (
                <button type="button" onClick={() => void act(call('speechModels.download', { name: m.name }))}>
                  {m.download.state === 'failed' ? 'Try again' : `Download (${size(m.bytes)})`}
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
      <div className="field">
        <label htmlFor={pathId}>Use a model file I already have</label>
        <div className="path-row">
          <input id={pathId} value={path} placeholder="/path/to/ggml-small.bin" spellCheck={false} onChange={(e) => setPath(e.target.value)} />
          <button type="button" disabled={!path.trim()} onClick={() => void act(call('speechModels.import', { path: path.trim() })).then(() => setPath(''))}>
            Install
          </button>
        </div>
        <span className="hint">A whisper.cpp model file (ggml format); it is copied into the service's model store and checked before use.</span>
      </div>
      {problem && (
        <p className="preferences-problem" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
