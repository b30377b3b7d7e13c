/** Shared by the text caption readers (SRT, VTT, SBV): blocks of lines separated by blank lines. */
import type { CaptionContent, Cue, Speaker } from '../transcript/model';
import { CONTENT_VERSION } from '../transcript/model';
import { decodeUtf8, splitLines } from './text';

export interface Block {
  /** 1-based line number of the block's first line. */
  line: number;
  lines: string[];
}

export function readBlocks(input: Uint8Array | string, format: string): Block[] {
  const lines = splitLines(decodeUtf8(input, format));
  const blocks: Block[] = [];
  let cur: Block | null = null;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') {
      cur = null;
      continue;
    }
    if (!cur) blocks.push((cur = { line: i + 1, lines: [] }));
    cur.lines.push(lines[i]);
  }
  return blocks;
}

/** Milliseconds from clock parts; a fraction of 1-3 digits is a decimal fraction of a second. */
export function clockMs(h: string | undefined, m: string, s: string, frac: string): number {
  const ms = Number((frac + '00').slice(0, 3));
  return ((Number(h ?? 0) * 60 + Number(m)) * 60 + Number(s)) * 1000 + ms;
}

/** Builds CaptionContent from parsed cues, giving each named speaker one id. */
export class CaptionBuilder {
  private cues: Cue[] = [];
  private speakers = new Map<string, Speaker>();

  add(start_ms: number, end_ms: number, lines: string[], speakerName?: string | null): void {
    let speaker_id: string | null = null;
    if (speakerName) {
      let s = this.speakers.get(speakerName);
      if (!s) this.speakers.set(speakerName, (s = { id: `spk-${this.speakers.size + 1}`, name: speakerName }));
      speaker_id = s.id;
    }
    this.cues.push({ id: `c${this.cues.length + 1}`, start_ms, end_ms, lines, speaker_id });
  }

  build(): CaptionContent {
    return { kind: 'caption', version: CONTENT_VERSION, speakers: [...this.speakers.values()], cues: this.cues };
  }
}
