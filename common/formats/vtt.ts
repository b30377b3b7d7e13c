/** WebVTT: "WEBVTT" header, cues with "HH:MM:SS.mmm --> HH:MM:SS.mmm", speakers as <v Name> voice tags. */
import type { CaptionContent } from '../transcript/model';
import { formatClock } from '../transcript/timecode';
import { CaptionBuilder, clockMs, readBlocks, type Block } from './blocks';
import { FormatError } from './errors';
import { speakerPrefix, type OutCue, type SpeakerStyle } from './source';
import { cleanLine } from './text';

function escapeVtt(s: string): string {
  if (!/[&<>]/.test(s)) return s;
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function writeVtt(cues: OutCue[], speakers: SpeakerStyle = 'voice'): string {
  let out = 'WEBVTT\n';
  for (let i = 0; i < cues.length; i++) {
    const c = cues[i];
    const body = c.lines.length === 1 ? escapeVtt(c.lines[0]) : c.lines.map(escapeVtt).join('\n');
    const text = speakers === 'voice' && c.speaker ? `<v ${escapeVtt(c.speaker)}>${body}` : escapeVtt(speakerPrefix(c, speakers)) + body;
    out += '\n' + (i + 1) + '\n' + formatClock(c.start_ms, '.') + ' --> ' + formatClock(c.end_ms, '.') + '\n' + text + '\n';
  }
  return out;
}

const TIMING = /^(?:(\d+):)?([0-5]\d):([0-5]\d)\.(\d{3})[ \t]+-->[ \t]+(?:(\d+):)?([0-5]\d):([0-5]\d)\.(\d{3})(?:[ \t].*)?$/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', nbsp: '\u00A0', lrm: '\u200E', rlm: '\u200F', quot: '"', apos: "'" };

function unescapeVtt(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return ENTITIES[e.toLowerCase()] ?? all;
  });
}

export function readVtt(input: Uint8Array | string): CaptionContent {
  const blocks = readBlocks(input, 'vtt');
  if (!blocks.length || blocks[0].line !== 1 || !/^WEBVTT(?:[ \t].*)?$/.test(blocks[0].lines[0])) {
    throw new FormatError('vtt', 'a WebVTT file starts with "WEBVTT"', { line: 1 });
  }
  // WebVTT forbids "-->" outside timing lines; inside the header or a cue's text it means a blank
  // line is missing before a cue. The spec's parser would start a cue there and keep the line
  // above (likely the cue's identifier) as text of the cue before: a silent change. We refuse it.
  const missingBlank = (b: Block, from: number) => {
    const i = b.lines.findIndex((l, j) => j >= from && l.includes('-->'));
    if (i >= 0) throw new FormatError('vtt', 'a timing line inside the header or a cue\'s text: separate cues with a blank line', { line: b.line + i });
  };
  missingBlank(blocks[0], 1);
  const out = new CaptionBuilder();
  for (const b of blocks.slice(1)) {
    if (/^(NOTE|STYLE|REGION)(?:[ \t]|$)/.test(b.lines[0])) {
      missingBlank(b, 0); // the spec forbids "-->" in these blocks too: a cue would be swallowed
      continue;
    }
    const k = b.lines[0].includes('-->') ? 0 : 1;
    const m = k < b.lines.length ? TIMING.exec(b.lines[k]) : null;
    if (!m) throw new FormatError('vtt', 'expected a timing line "00:00:00.000 --> 00:00:00.000"', { line: b.line + k });
    const start = clockMs(m[1], m[2], m[3], m[4]);
    const end = clockMs(m[5], m[6], m[7], m[8]);
    if (end < start) throw new FormatError('vtt', 'the cue ends before it starts', { line: b.line + k });
    missingBlank(b, k + 1);
    const raw = b.lines.slice(k + 1).join('\n');
    const voice = /<v(?:\.[^\s>]*)?[ \t]+([^>]*)>/.exec(raw);
    const lines = raw
      .split('\n')
      .map((l) => cleanLine(unescapeVtt(l.replace(/<[^>]*>/g, ''))))
      .filter((l) => l.length > 0);
    out.add(start, end, lines, voice ? cleanLine(unescapeVtt(voice[1])) : null);
  }
  return out.build();
}
