import type { ModelChoice } from '../../../common/ipc';

type Speech = { diarization: boolean; punctuation: boolean; allowProfanity: boolean; maskProfanity: boolean };

/**
 * The recognition options a new transcription and a watched folder share: speakers, punctuation
 * (with why it is weaker for a language that has no punctuation model) and offensive words.
 */
export function SpeechChecks({ value, model, onChange, unused = null }: { value: Speech; model: ModelChoice | undefined; onChange: (key: keyof Speech, on: boolean) => void; unused?: string | null }) {
  // Where recognition does not run (a document uploaded as it is), the options are shown greyed, saying why.
  const off = unused !== null;
  return (
    <>
      <label className="check" title={unused ?? undefined}>
        <input type="checkbox" disabled={off} checked={value.diarization} onChange={(e) => onChange('diarization', e.target.checked)} /> Tell speakers apart
      </label>
      <label className="check" title={unused ?? undefined}>
        <input type="checkbox" disabled={off} checked={value.punctuation} onChange={(e) => onChange('punctuation', e.target.checked)} />
        {/* One run of text, so the note wraps under the words rather than squeezing them into a column. */}
        <span>
          Add punctuation
          {!off && model && !model.hasPunctuation && <span className="muted small"> (no punctuation model for {model.name}: full stops at pauses only)</span>}
        </span>
      </label>
      <label className="check" title={unused ?? undefined}>
        <input type="checkbox" disabled={off} checked={value.allowProfanity} onChange={(e) => onChange('allowProfanity', e.target.checked)} />
        <span>
          Allow offensive words <span className="muted small">(off: the local engine never hears one)</span>
        </span>
      </label>
      <label className="check">
        <input type="checkbox" checked={value.maskProfanity} onChange={(e) => onChange('maskProfanity', e.target.checked)} /> Mask offensive words
      </label>
      {off && <p className="muted small">{unused}</p>}
    </>
  );
}
