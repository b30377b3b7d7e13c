import { useEffect, useId, useState } from 'react';
import { CAPTION_PROFILES, type CaptionContent, type CaptionProfileId, type CaptionViolation } from '../../../../common/transcript';
import type { Edit } from '../useEdit';
import { useCompactEditor } from '../useCompactEditor';
import { CaptionProblems } from './CaptionProblems';

interface Props {
  content: CaptionContent;
  profile: CaptionProfileId;
  violations: CaptionViolation[];
  onProfile: (p: CaptionProfileId) => void;
  onFix: () => void;
  edit: Edit;
  /** Shows a cue a problem names. */
  onShow: (cueId: string) => void;
  /** A finished document (FinishedLock): the problems are listed, with no fixes. */
  readOnly?: boolean;
}

/**
 * The caption rules profile the cues are checked against, how they fare, and the automatic fix, on
 * one line; the count of problems opens the list of them with their one-click fixes. The list starts
 * open in a roomy window and closed in a compact one, where the cues need the height.
 */
export function CaptionRules({ content, profile, violations, onProfile, onFix, edit, onShow, readOnly = false }: Props) {
  const compact = useCompactEditor();
  const [open, setOpen] = useState(!compact);
  useEffect(() => setOpen(!compact), [compact]);
  const listId = useId();
  const cues = content.cues.length;
  const affected = new Set(violations.map((v) => v.cue_id)).size;
  const count = `${violations.length} problem${violations.length > 1 ? 's' : ''} in ${affected} cue${affected > 1 ? 's' : ''}`;
  return (
    <>
      <div className="caption-rules" role="group" aria-label="Caption rules">
        <label>
          <span className="muted">Rules</span>{' '}
          <select aria-label="Caption rules profile" title={describe(profile)} value={profile} onChange={(e) => onProfile(e.target.value as CaptionProfileId)}>
            {Object.values(CAPTION_PROFILES).map((p) => (
              <option key={p.id} value={p.id}>{p.name}</option>
            ))}
          </select>
        </label>
        <span className="rules-profile muted small">{describe(profile)}</span>
        <span role="status">
          {violations.length === 0 ? (
            <span className="rules-summary ok">{cues === 1 ? 'The cue follows the rules' : `All ${cues} cues follow the rules`}</span>
          ) : (
            <button type="button" className="rules-summary warn" aria-expanded={open} aria-controls={open ? listId : undefined} title={open ? 'Hide the problems' : 'Show the problems, each with its fixes'} onClick={() => setOpen(!open)}>
              {count} <span aria-hidden="true">{open ? '▴' : '▾'}</span>
            </button>
          )}
        </span>
        {!readOnly && (
          <button type="button" disabled={violations.length === 0} onClick={onFix} title="Re-wraps lines, splits long cues, and retimes where the neighbours leave room">
            Fix what is fixable
          </button>
        )}
      </div>
      {open && <CaptionProblems id={listId} content={content} violations={violations} profile={profile} edit={edit} onShow={onShow} readOnly={readOnly} />}
    </>
  );
}

function describe(id: CaptionProfileId): string {
  const p = CAPTION_PROFILES[id];
  return `${p.maxCharsPerLine} chars × ${p.maxLines} line${p.maxLines > 1 ? 's' : ''} · ${p.minDurationMs / 1000}–${p.maxDurationMs / 1000} s · ${p.maxCps} CPS`;
}
