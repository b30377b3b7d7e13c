import { useId } from 'react';
import type { ModelChoice } from '../../../common/ipc';
import './imports.css';

const UNSUPPORTED = 'not installed on this service';
const NO_ENGINE = 'No speech engine is installed here yet: add a Whisper model in Preferences, under Speech models.';

/** Which engine the chosen language runs on, in words (the local service says; a cloud does not). */
export function engineLine(engine: string | null | undefined, compact?: boolean): string | null {
  if (!engine) return null;
  if (engine === 'pocketsphinx') return compact ? 'Runs on the built-in engine' : 'Runs on the built-in engine (pocketsphinx: no punctuation); a Whisper model in Preferences does better.';
  const name = engine.replace(/^whisper:/, '');
  return compact ? `Runs on Whisper ${name}` : `Runs on the Whisper model ${name}, with punctuation.`;
}

/**
 * A language chosen by name from models.list. Languages the service lists but cannot transcribe
 * here are shown, disabled, with why; a key that is not in the list at all (an older folder's
 * profile) stays visible so saving does not silently change it.
 */
export function LanguageSelect(props: { models: ModelChoice[]; value: string; onChange: (key: string) => void; label?: string; loading?: boolean; error?: string | null; id?: string; compact?: boolean; /** The engine the person chose, when not the service's own choice. */ chosenEngine?: string | null }) {
  const fallbackId = useId();
  const id = props.id ?? fallbackId;
  const hintId = `${id}-hint`;
  const known = props.models.some((m) => m.key === props.value);
  const supportedCount = props.models.filter((m) => m.supported).length;
  const chosen = props.models.find((m) => m.key === props.value && m.supported);
  const runsOn = props.error || props.loading ? null : engineLine(props.chosenEngine ?? chosen?.engine, props.compact);
  const count = props.error
    ? `The languages could not be read: ${props.error}`
    : props.loading
      ? 'Reading the languages…'
      : props.models.length > 0 && supportedCount === 0
        ? NO_ENGINE
        : props.models.length > 0 && supportedCount < props.models.length
        ? props.compact
          ? `${supportedCount} of ${props.models.length} can be transcribed here`
          : `${supportedCount} of ${props.models.length} languages can be transcribed here; the others are ${UNSUPPORTED}.`
        : null;
  const hint = [count, runsOn].filter(Boolean).join(props.compact ? ' · ' : ' ') || null;
  return (
    <div className="language-select">
      <label htmlFor={id}>{props.label ?? 'Language'}</label>
      <select id={id} value={props.value} onChange={(e) => props.onChange(e.target.value)} aria-describedby={hint ? hintId : undefined} disabled={props.models.length === 0}>
        {!known && <option value={props.value}>{props.value ? `${props.value} (not offered by the service)` : 'Choose a language'}</option>}
        {props.models.map((m) => (
          <option key={m.key} value={m.key} disabled={!m.supported}>
            {m.supported ? m.name : `${m.name} (${UNSUPPORTED})`}
          </option>
        ))}
      </select>
      {hint && (
        <span id={hintId} className={`small ${props.error ? 'error' : 'muted'}`}>
          {hint}
        </span>
      )}
    </div>
  );
}
