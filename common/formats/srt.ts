/** SubRip (.srt): numbered cues, "HH:MM:SS,mmm --> HH:MM:SS,mmm", text lines, a blank line. */
import type { CaptionContent } from '../transcript/model';
import { formatClock } from '../transcript/timecode';
import { CaptionBuilder, clockMs, readBlocks } from './blocks';
import { FormatError } from './errors';
import { speakerPrefix, type OutCue, type SpeakerStyle } from './source';
import { cleanLine } from './text';

export function writeSrt(cues: OutCue[], speakers: SpeakerStyle = 'prefix'): string {
  let out = '';
  for (let i = 0; i < cues.length; i++) {
    const c = cues[i];
    const text = speakerPrefix(c, speakers) + (c.lines.length === 1 ? c.lines[0] : c.lines.join('\n'));
    out += (i ? '\n' : '') + (i + 1) + '\n' + formatClock(c.start_ms, ',') + ' --> ' + formatClock(c.end_ms, ',') + '\n' + text + '\n';
  }
  return out;
}

const TIMING = /^\s*(\d+):([0-5]\d):([0-5]\d)[,.](\d{1,3})\s*-->\s*(\d+):([0-5]\d):([0-5]\d)[,.](\d{1,3})(?:\s.*)?$/;
const CUE_NUMBER = /^\s*\d+\s*$/;
/** Formatting tags SubRip players understand; they are styling, not text. */
const TAGS = /<\/?(?:i|b|u|font)(?:\s[^>]*)?>|\{\\[^}]*\}/gi;

export function readSrt(input: Uint8Array | string): CaptionContent {
  const out = new CaptionBuilder();
  for (const b of readBlocks(input, 'srt')) {
    let k = 0;
    if (!TIMING.test(b.lines[0])) {
      if (CUE_NUMBER.test(b.lines[0]) && b.lines.length > 1 && TIMING.test(b.lines[1])) k = 1;
      else throw new FormatError('srt', `expected a cue number and a timing line "00:00:00,000 --> 00:00:00,000", found "${b.lines[k].slice(0, 60)}"`, { line: b.line + (k === 0 && CUE_NUMBER.test(b.lines[0]) ? 1 : 0) });
    }
    while (k < b.lines.length) {
      const m = TIMING.exec(b.lines[k])!;
      const start = clockMs(m[1], m[2], m[3], m[4]);
      const end = clockMs(m[5], m[6], m[7], m[8]);
      if (end < start) throw new FormatError('srt', 'the cue ends before it starts', { line: b.line + k });
      // The cue's text runs to the block's end or to the next timing line. SubRip has no spec; a
      // missing blank line between two numbered cues is a common slip, and ffmpeg (hence most
      // players) reads a cue number followed by a timing line as the next cue. We read it the same
      // way, so we import what those tools show. A timing line with no number before it inside a
      // cue is not that slip: we refuse it, naming the line, rather than guess.
      let next = k + 1;
      while (next < b.lines.length && !TIMING.test(b.lines[next])) next++;
      let textEnd = next;
      if (next < b.lines.length) {
        if (next - 1 <= k || !CUE_NUMBER.test(b.lines[next - 1])) {
          throw new FormatError('srt', 'a timing line inside a cue\'s text: separate cues with a blank line', { line: b.line + next });
        }
        textEnd = next - 1; // the cue number of the next cue
      }
      const lines = b.lines.slice(k + 1, textEnd).map((l) => cleanLine(l.replace(TAGS, ''))).filter((l) => l.length > 0);
      out.add(start, end, lines);
      k = next;
    }
  }
  return out.build();
}
