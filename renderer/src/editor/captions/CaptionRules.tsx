import { CAPTION_PROFILES, type CaptionProfileId, type CaptionViolation } from '../../../../common/transcript';

/** The caption rules profile the cues are checked against, how they fare, and the automatic fix. */
export function CaptionRules({ profile, violations, cues, onProfile, onFix }: { profile: CaptionProfileId; violations: CaptionViolation[]; cues: number; onProfile: (p: CaptionProfileId) => void; onFix: () => void }) {
  const affected = new Set(violations.map((v) => v.cue_id)).size;
  return (
    <div className="caption-rules" role="group" aria-label="Caption rules">
      <label>
        <span className="muted">Rules</span>{' '}
        <select aria-label="Caption rules profile" value={profile} onChange={(e) => onProfile(e.target.value as CaptionProfileId)}>
          {Object.values(CAPTION_PROFILES).map((p) => (
            <option key={p.id} value={p.id}>{p.name}</option>
          ))}
        </select>
      </label>
      <span className="muted small" title={describe(profile)}>{describe(profile)}</span>
      <span className={violations.length ? 'rules-summary warn' : 'rules-summary ok'} role="status">
        {violations.length === 0 ? cues === 1 ? 'The cue follows the rules' : `All ${cues} cues follow the rules` : `${violations.length} problem${violations.length > 1 ? 's' : ''} in ${affected} cue${affected > 1 ? 's' : ''}`}
      </span>
      <button type="button" disabled={violations.length === 0} onClick={onFix} title="Re-wraps lines, splits long cues, and retimes where the neighbours leave room">
        Fix what is fixable
      </button>
    </div>
  );
}

function describe(id: CaptionProfileId): string {
  const p = CAPTION_PROFILES[id];
  return `${p.maxCharsPerLine} chars × ${p.maxLines} line${p.maxLines > 1 ? 's' : ''} · ${p.minDurationMs / 1000}–${p.maxDurationMs / 1000} s · ${p.maxCps} CPS`;
}
