/**
 * Every export and import format behind two entry points: renderExport (document -> file bytes)
 * and parseCaptions (caption file -> CaptionContent). Format ids are common/api's ExportFormat.
 */
import type { ExportFormat } from '../api/enums';
import { CAPTION_FORMATS } from '../api/enums';
import type { CaptionContent } from '../transcript/model';
import { shiftTimings } from '../transcript/timing';
import { timecodeToMs } from '../transcript/timecode';
import { writeDocx } from './docx';
import { FormatError } from './errors';
import { writeHtml } from './html';
import { writePdf } from './pdf';
import { outputCues, resolveSource, type ExportInput, type ExportOptions } from './source';
import { readSbv, writeSbv } from './sbv';
import { readSpeakerPrefixes } from './speaker-prefix';
import { readSrt, writeSrt } from './srt';
import { readStl, writeStl } from './stl';
import { utf8 } from './text';
import { readTtml, writeTtml } from './ttml';
import { writeTxt } from './txt';
import { readVtt, writeVtt } from './vtt';

export { FormatError } from './errors';
export { readStlInfo, type StlInfo } from './stl';
export { outputCues, resolveSource, type ExportInput, type ExportOptions, type ExportSource, type OutCue, type SpeakerStyle } from './source';

export type CaptionFormat = (typeof CAPTION_FORMATS)[number];
export const CAPTION_IMPORT_FORMATS: readonly CaptionFormat[] = CAPTION_FORMATS;

/** File name extension and media type of each export format. */
export const FORMAT_FILES: Record<ExportFormat, { extension: string; mediaType: string }> = {
  srt: { extension: 'srt', mediaType: 'application/x-subrip' },
  vtt: { extension: 'vtt', mediaType: 'text/vtt' },
  sbv: { extension: 'sbv', mediaType: 'text/plain' },
  ttml: { extension: 'ttml', mediaType: 'application/ttml+xml' },
  stl: { extension: 'stl', mediaType: 'application/octet-stream' },
  txt: { extension: 'txt', mediaType: 'text/plain' },
  html: { extension: 'html', mediaType: 'text/html' },
  docx: { extension: 'docx', mediaType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  pdf: { extension: 'pdf', mediaType: 'application/pdf' },
};

/**
 * Render a document (a Document resource, its `document` body, or bare content) as `format`.
 * Caption formats segment transcripts into cues by options.profile; transcript formats print
 * captions one cue a paragraph. DOCX and PDF are asynchronous.
 */
export function renderExport(format: ExportFormat, input: ExportInput, options: ExportOptions = {}): Uint8Array | Promise<Uint8Array> {
  const src = resolveSource(format, input, options);
  switch (format) {
    case 'srt':
      return utf8(writeSrt(outputCues(src, options), options.speakers ?? 'prefix'));
    case 'vtt':
      return utf8(writeVtt(outputCues(src, options), options.speakers ?? 'voice'));
    case 'sbv':
      return utf8(writeSbv(outputCues(src, options), options.speakers ?? 'prefix'));
    case 'ttml':
      return utf8(writeTtml(outputCues(src, options), src, options.speakers ?? 'prefix'));
    case 'stl':
      return writeStl(outputCues(src, options), src, options.speakers ?? 'prefix', options.date);
    case 'txt':
      return utf8(writeTxt(src, options));
    case 'html':
      return utf8(writeHtml(src, options));
    case 'docx':
      return writeDocx(src, options);
    case 'pdf':
      return writePdf(src, options);
    default:
      throw new FormatError(String(format), 'unknown export format');
  }
}

export interface ParseOptions {
  /** Subtract this timecode (HH:MM:SS:FF) from every time read, e.g. the document's offset. */
  timecodeOffset?: string;
  frameRate?: number;
  /** SRT and SBV: a "Name: " at a cue's start is its speaker (as our writers mark turns). */
  speakerPrefixes?: boolean;
}

/** Read a caption file. Malformed input throws a FormatError naming the line or byte offset. */
export function parseCaptions(format: ExportFormat | string, input: Uint8Array | string, options: ParseOptions = {}): CaptionContent {
  let content: CaptionContent;
  switch (format) {
    case 'srt':
      content = readSrt(input);
      break;
    case 'vtt':
      content = readVtt(input);
      break;
    case 'sbv':
      content = readSbv(input);
      break;
    case 'ttml':
      content = readTtml(input);
      break;
    case 'stl':
      if (typeof input === 'string') throw new FormatError('stl', 'EBU STL is binary: pass the file bytes, not text');
      content = readStl(input);
      break;
    default:
      throw new FormatError(String(format), `cannot read "${format}" as captions (readable: ${CAPTION_FORMATS.join(', ')})`);
  }
  if (options.speakerPrefixes && (format === 'srt' || format === 'sbv')) content = readSpeakerPrefixes(content);
  if (options.timecodeOffset) {
    let ms: number;
    try {
      ms = timecodeToMs(options.timecodeOffset, options.frameRate);
    } catch (e) {
      throw new FormatError(String(format), (e as Error).message);
    }
    content = shiftTimings(content, -ms);
  }
  return content;
}
