/**
 * What every writer starts from: the content, its timecode offset and frame rate, a title and a
 * language, whichever shape the caller holds (a Document resource, its `document` body, or bare
 * content). Also the one place where cues are made safe for output: offset applied, never
 * negative, never overlapping, no empty text.
 */
import type { CaptionContent, DocumentBody, DocumentContent, DocumentMetadata, TranscriptContent } from '../transcript/model';
import { DEFAULT_FRAME_RATE } from '../transcript/model';
import { resolveProfile, transcriptToCaptions, type CaptionProfile, type CaptionProfileId } from '../transcript/captions';
import { captionsToTranscript } from '../transcript/from-captions';
import { timecodeToMs, TimecodeError } from '../transcript/timecode';
import { cleanLine } from './text';
import { FormatError } from './errors';

/** The parts of the spec's Document resource the writers use. */
export interface DocumentLike {
  filename?: string;
  language?: string;
  timecode_offset?: string;
  document?: DocumentBody;
}

export type ExportInput = DocumentLike | DocumentBody | DocumentContent;

export type SpeakerStyle = 'none' | 'prefix' | 'voice';

export interface ExportOptions {
  /** Speaker names: none, a "Name: " prefix where a turn starts, or (VTT) voice tags on every cue. Default: prefix; voice for VTT. Transcript formats: none hides names. */
  speakers?: SpeakerStyle;
  /** Timestamps in transcript formats (TXT default off; HTML, DOCX, PDF default on). */
  timestamps?: boolean;
  /** Title for HTML, DOCX, PDF and TTML; defaults to the file name. */
  title?: string;
  /** Rules used to cut a transcript into cues for a caption format. */
  profile?: CaptionProfile | CaptionProfileId;
  /** Overrides the document's timecode_offset (HH:MM:SS:FF). */
  timecodeOffset?: string;
  /** Overrides metadata.frame_rate. */
  frameRate?: number;
  /** Language tag (BCP 47) for TTML, HTML and EBU STL; defaults to the document's. */
  language?: string;
  /** PDF: TrueType/OpenType font bytes (common/ never reads files; the caller does). */
  font?: Uint8Array;
  /** PDF: bold face for the title and speaker lines (defaults to the regular font). */
  boldFont?: Uint8Array;
  /** PDF: fonts tried in order for characters the main font lacks (e.g. CJK, Arabic). */
  fallbackFonts?: Uint8Array[];
  /** EBU STL: creation date written in the GSI block (default: now). */
  date?: Date;
}

export interface ExportSource {
  content: DocumentContent;
  metadata: DocumentMetadata;
  frameRate: number;
  timecodeOffset: string;
  /** The offset as milliseconds, added to every time the writers print. */
  offsetMs: number;
  title: string;
  language: string;
}

function isContent(x: ExportInput): x is DocumentContent {
  return 'kind' in x && (x.kind === 'transcript' || x.kind === 'caption');
}
function isBody(x: ExportInput): x is DocumentBody {
  return 'document_type' in x && 'content' in x;
}

export function resolveSource(format: string, input: ExportInput, opts: ExportOptions = {}): ExportSource {
  let content: DocumentContent;
  let metadata: DocumentMetadata = {};
  let doc: DocumentLike = {};
  if (isContent(input)) content = input;
  else if (isBody(input)) ({ content, metadata } = input);
  else {
    doc = input;
    if (!doc.document) throw new FormatError(format, 'the document carries no content (read it without direct_download)');
    ({ content, metadata } = doc.document);
  }
  const frameRate = opts.frameRate ?? metadata.frame_rate ?? DEFAULT_FRAME_RATE;
  const timecodeOffset = opts.timecodeOffset ?? doc.timecode_offset ?? '00:00:00:00';
  let offsetMs: number;
  try {
    offsetMs = timecodeToMs(timecodeOffset, frameRate);
  } catch (e) {
    throw new FormatError(format, (e as TimecodeError).message);
  }
  const title = opts.title ?? (doc.filename ? doc.filename.replace(/\.[^.]+$/, '') : 'Transcript');
  return { content, metadata, frameRate, timecodeOffset, offsetMs, title, language: opts.language ?? doc.language ?? 'en' };
}

/** A cue as the caption writers print it. */
export interface OutCue {
  start_ms: number;
  end_ms: number;
  lines: string[];
  speaker: string | null;
  /** The speaker differs from the previous cue's: where a name prefix goes. */
  turn: boolean;
}

/**
 * Caption cues ready to print: transcripts segmented by the profile, text cleaned, empty cues
 * dropped, cues starting together merged, zero-length cues given one frame, every cue ended no
 * later than the next starts, and the timecode offset added.
 */
export function outputCues(src: ExportSource, opts: ExportOptions = {}): OutCue[] {
  const caption: CaptionContent = src.content.kind === 'caption' ? src.content : transcriptToCaptions(src.content, resolveProfile(opts.profile));
  // A name is printed on one line (a newline in it would end a cue early in SRT, VTT and SBV).
  const names = new Map(caption.speakers.map((s) => [s.id, cleanLine(s.name)]));
  const cues = caption.cues
    .map((c) => ({
      start_ms: Math.max(0, c.start_ms),
      end_ms: Math.max(0, c.end_ms),
      lines: c.lines.flatMap((l) => l.split(/\r\n|\r|\n/)).map(cleanLine).filter((l) => l.length > 0),
      speaker: (c.speaker_id && names.get(c.speaker_id)) || null,
      turn: false,
    }))
    .filter((c) => c.lines.length > 0)
    .sort((a, b) => a.start_ms - b.start_ms);
  const out: OutCue[] = [];
  for (const c of cues) {
    const prev = out[out.length - 1];
    if (prev && prev.start_ms === c.start_ms) {
      prev.lines.push(...c.lines);
      prev.end_ms = Math.max(prev.end_ms, c.end_ms);
      if (prev.speaker !== c.speaker) prev.speaker = null;
      continue;
    }
    out.push({ ...c, end_ms: Math.max(c.end_ms, c.start_ms) });
  }
  const frame = Math.max(1, Math.round(1000 / src.frameRate));
  for (let i = 0; i < out.length; i++) {
    const c = out[i];
    const next = out[i + 1];
    if (c.end_ms === c.start_ms) c.end_ms = c.start_ms + frame;
    if (next && c.end_ms > next.start_ms) c.end_ms = next.start_ms;
  }
  out.forEach((c, i) => (c.turn = c.speaker !== null && (i === 0 || out[i - 1].speaker !== c.speaker)));
  if (src.offsetMs) {
    for (const c of out) {
      c.start_ms += src.offsetMs;
      c.end_ms += src.offsetMs;
    }
  }
  return out;
}

/** The transcript the document formats print (captions become one segment a cue). */
export function outputTranscript(src: ExportSource): TranscriptContent {
  return src.content.kind === 'transcript' ? src.content : captionsToTranscript(src.content);
}

/** "Name: " when speakers are shown as a prefix and this cue starts a speaker's turn. */
export function speakerPrefix(cue: OutCue, style: SpeakerStyle): string {
  return cue.turn && cue.speaker && style !== 'none' ? `${cue.speaker}: ` : '';
}
