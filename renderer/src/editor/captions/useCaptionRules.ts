import { useMemo } from 'react';
import { CAPTION_PROFILES, DEFAULT_CAPTION_PROFILE, checkCaptions, fixCaptions, type CaptionProfileId, type DocumentContent } from '../../../../common/transcript';
import { useStoredChoice } from '../../lib/useStoredChoice';
import type { History } from '../useHistory';

const PROFILE_IDS = Object.keys(CAPTION_PROFILES) as CaptionProfileId[];

/** The chosen caption rules profile (remembered), the cues' violations checked on every change, and the automatic fix. */
export function useCaptionRules(history: History<DocumentContent>, say: (text: string) => void) {
  const { present: content, latest, push } = history;
  const [profile, setProfile] = useStoredChoice<CaptionProfileId>('s2t.captionProfile', DEFAULT_CAPTION_PROFILE, PROFILE_IDS);
  const violations = useMemo(() => (content?.kind === 'caption' ? checkCaptions(content, profile) : []), [content, profile]);
  const fix = () => {
    const current = latest();
    if (current?.kind !== 'caption') return;
    const { content: fixed, remaining } = fixCaptions(current, profile);
    push(fixed, 'fix captions');
    say(remaining.length ? `Fixed what could be fixed; ${remaining.length} problem${remaining.length > 1 ? 's' : ''} need a person.` : 'Fixed: every cue follows the rules.');
  };
  return { profile, setProfile, violations, fix };
}
