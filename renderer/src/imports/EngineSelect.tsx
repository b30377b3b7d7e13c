import { useEffect, useId } from 'react';
import type { ModelChoice } from '../../../common/ipc';
import './imports.css';

/** An engine id ('pocketsphinx', 'whisper:NAME', and what the service records: '+align', '-live') in a person's words. */
export function engineName(id: string): string {
  const [base, ...extra] = id.split('+');
  const live = base.endsWith('-live');
  const engine = base.replace(/-live$/, '');
  const name = engine === 'pocketsphinx' ? 'Built-in engine (pocketsphinx)' : engine.startsWith('whisper:') ? `Whisper model ${engine.slice('whisper:'.length)}` : engine;
  const notes = [live ? 'live' : null, extra.includes('align') ? 'aligned to your text' : null].filter(Boolean);
  return notes.length ? `${name}, ${notes.join(', ')}` : name;
}

/**
 * The speech engine for a transcription, shown only where there is a choice: the service runs
 * more than one engine for the chosen language (a Whisper model is installed). "Automatic" is the
 * service's own choice, the best installed engine. A chosen engine that cannot run the language
 * (another language chosen, the model deleted) goes back to Automatic.
 */
export function EngineSelect(props: { model: ModelChoice | undefined; value: string | null; onChange: (engine: string | null) => void; disabled?: string | null }) {
  const id = useId();
  const engines = props.model?.engines ?? [];
  const usable = props.value === null || engines.includes(props.value);
  useEffect(() => {
    if (!usable && props.model) props.onChange(null);
  }, [usable, props.model]);
  if (engines.length < 2) return null;
  const automatic = props.model?.engine ? `Automatic: ${engineName(props.model.engine)}` : 'Automatic';
  return (
    <div className="language-select engine-select">
      <label htmlFor={id}>Speech engine</label>
      <select id={id} value={usable && !props.disabled ? (props.value ?? '') : ''} disabled={!!props.disabled} title={props.disabled ?? undefined} onChange={(e) => props.onChange(e.target.value || null)} aria-describedby={props.disabled ? `${id}-hint` : undefined}>
        <option value="">{automatic}</option>
        {engines.map((e) => (
          <option key={e} value={e}>
            {engineName(e)}
          </option>
        ))}
      </select>
      {props.disabled && (
        <span id={`${id}-hint`} className="muted small">
          {props.disabled}
        </span>
      )}
    </div>
  );
}
