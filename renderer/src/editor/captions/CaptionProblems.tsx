import { memo } from 'react';
import { CAPTION_PROFILES, type CaptionContent, type CaptionProfileId, type CaptionViolation } from '../../../../common/transcript';
import type { Edit } from '../useEdit';
import { applyFix, FIX_LABEL, fixesFor } from './cueTools';
import { ruleText } from './CueRow';

/** A long document can break the rules thousands of times; the list shows the first ones (fixing them brings up the next). */
const SHOWN = 50;

interface Props {
  /** The list's id, for the toggle that shows it (CaptionRules). */
  id: string;
  content: CaptionContent;
  violations: CaptionViolation[];
  profile: CaptionProfileId;
  edit: Edit;
  onShow: (cueId: string) => void;
  /** A finished document: the problems without their fixes. */
  readOnly: boolean;
}

/**
 * The caption rule problems (shown from CaptionRules' count of them), each with the one-click fixes that would help it (each one undoable edit).
 * Drawn again only when the problems change, not on every media tick (onShow may be a new function
 * each time, doing the same thing).
 */
export const CaptionProblems = memo(function CaptionProblems({ id, content, violations, profile, edit, onShow, readOnly }: Props) {
  if (violations.length === 0) return null;
  const p = CAPTION_PROFILES[profile];
  return (
    <div className="caption-problems" id={id}>
      <ul aria-label="Caption problems">
        {violations.slice(0, SHOWN).map((v, k) => (
          <li key={`${v.cue_id}:${v.rule}:${v.line ?? ''}:${k}`}>
            <button type="button" className="link" onClick={() => onShow(v.cue_id)} title="Show this cue">
              Cue {v.cue_index + 1}
            </button>{' '}
            <span>{ruleText(v)}</span>
            {!readOnly && fixesFor(content, v, p).map((f) => (
              <button key={f} type="button" className="fix" aria-label={`${FIX_LABEL[f]}: cue ${v.cue_index + 1}`} onClick={() => edit(FIX_LABEL[f].toLowerCase(), (c) => (c.kind === 'caption' ? applyFix(c, v.cue_id, f, p) : c))}>
                {FIX_LABEL[f]}
              </button>
            ))}
          </li>
        ))}
      </ul>
      {violations.length > SHOWN && <p className="muted small">and {violations.length - SHOWN} more; fix these to see them.</p>}
    </div>
  );
}, (a, b) => a.id === b.id && a.content === b.content && a.violations === b.violations && a.profile === b.profile && a.edit === b.edit && a.readOnly === b.readOnly);
