import type { ModelChoice } from '../../../common/ipc';

type Speech = { diarization: boolean; punctuation: boolean };

/**
 * The recognition options a new transcription and a watched folder share: speakers and
 * punctuation, with why punctuation is weaker for a language that has no punctuation model.
 */
export function SpeechChecks({ value, model, onChange }: { value: Speech; model: ModelChoice | undefined; onChange: (key: keyof Speech, on: boolean) => void }) {
  return (
    <>
      <label className="check">
        <input type="checkbox" checked={value.diarization} onChange={(e) => onChange('diarization', e.target.checked)} /> Tell speakers apart
      </label>
      <label className="check">
        <input type="checkbox" checked={value.punctuation} onChange={(e) => onChange('punctuation', e.target.checked)} />
        {/* One run of text, so the note wraps under the words rather than squeezing them into a column. */}
        <span>
          Add punctuation
          {model && !model.hasPunctuation && <span className="muted small"> (no punctuation model for {model.name}: full stops at pauses only)</span>}
        </span>
      </label>
    </>
  );
}
