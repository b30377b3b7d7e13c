/**
 * "Name: " at the start of a cue, as our SRT and SBV writers mark a speaker's turn, read back as
 * that cue's speaker. The writers put the name only where a turn starts, so a cue without one
 * continues the speaker before it. A name is short (up to four words, 32 characters), each word
 * capitalised or a number (or a particle such as "van"), so a sentence with a colon in it
 * ("Note that: ...") stays text.
 */
import type { CaptionContent } from '../transcript/model';
import { CaptionBuilder } from './blocks';

const WORD = "(?:[\\p{Lu}\\p{N}][\\p{L}\\p{N}.'-]*|van|von|de|der|den|da|di|du|del|la|le|bin|al)";
const PREFIX = new RegExp(`^([\\p{Lu}\\p{N}][\\p{L}\\p{N}.'-]*(?: ${WORD}){0,3}): (\\S.*)$`, 'u');
const MAX_NAME = 32;

export function readSpeakerPrefixes(content: CaptionContent): CaptionContent {
  const named = new Map(content.speakers.map((s) => [s.id, s.name]));
  const out = new CaptionBuilder();
  let current: string | null = null;
  for (const cue of content.cues) {
    const m = PREFIX.exec(cue.lines[0] ?? '');
    const given = cue.speaker_id ? (named.get(cue.speaker_id) ?? null) : null;
    if (m && m[1].length <= MAX_NAME && !given) {
      current = m[1];
      out.add(cue.start_ms, cue.end_ms, [m[2], ...cue.lines.slice(1)], current);
    } else {
      if (given) current = given;
      out.add(cue.start_ms, cue.end_ms, cue.lines, given ?? current);
    }
  }
  return out.build();
}
