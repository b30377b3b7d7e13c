/** SubViewer as YouTube reads it (.sbv): "H:MM:SS.mmm,H:MM:SS.mmm", text lines, a blank line. */
import type { CaptionContent } from '../transcript/model';
import { pad } from '../transcript/timecode';
import { CaptionBuilder, clockMs, readBlocks } from './blocks';
import { FormatError } from './errors';
import { speakerPrefix, type OutCue, type SpeakerStyle } from './source';
import { cleanLine } from './text';

function sbvClock(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 3600)}:${pad(Math.floor(s / 60) % 60, 2)}:${pad(s % 60, 2)}.${pad(ms % 1000, 3)}`;
}

export function writeSbv(cues: OutCue[], speakers: SpeakerStyle = 'prefix'): string {
  const parts: string[] = [];
  for (const c of cues) parts.push(`${sbvClock(c.start_ms)},${sbvClock(c.end_ms)}\n${speakerPrefix(c, speakers)}${c.lines.join('\n')}\n`);
  return parts.join('\n');
}

const TIMING = /^\s*(\d+):([0-5]\d):([0-5]\d)\.(\d{1,3}),(\d+):([0-5]\d):([0-5]\d)\.(\d{1,3})\s*$/;

export function readSbv(input: Uint8Array | string): CaptionContent {
  const out = new CaptionBuilder();
  for (const b of readBlocks(input, 'sbv')) {
    const m = TIMING.exec(b.lines[0]);
    if (!m) throw new FormatError('sbv', 'expected a timing line "0:00:00.000,0:00:00.000"', { line: b.line });
    const start = clockMs(m[1], m[2], m[3], m[4]);
    const end = clockMs(m[5], m[6], m[7], m[8]);
    if (end < start) throw new FormatError('sbv', 'the cue ends before it starts', { line: b.line });
    // A timing line in the text means a blank line is missing; folding it into the text would change the file silently.
    const inside = b.lines.findIndex((l, i) => i > 0 && TIMING.test(l));
    if (inside > 0) throw new FormatError('sbv', 'a timing line inside a cue\'s text: separate cues with a blank line', { line: b.line + inside });
    out.add(start, end, b.lines.slice(1).map(cleanLine).filter((l) => l.length > 0));
  }
  return out.build();
}
