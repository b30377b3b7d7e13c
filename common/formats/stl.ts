/**
 * EBU STL (EBU Tech 3264-1991): a 1024-byte General Subtitle Information (GSI) block, then one or
 * more 128-byte Text and Timing Information (TTI) blocks per subtitle. We write open subtitles
 * (DSC "0") in code page 850 for the GSI, the text code table (CCT) that fits the language, and
 * the frame rate as DFC STL25.01 or STL30.01; time codes are frames at that rate, offset by the
 * document's timecode (also written as TCP, the start-of-programme time code).
 */
import type { CaptionContent } from '../transcript/model';
import { charCount } from '../transcript/captions';
import { dropFrameCount, dropFrameLabel, framesToMs, msToFrames, nominalFrameRate, pad } from '../transcript/timecode';
import { CaptionBuilder } from './blocks';
import { FormatError } from './errors';
import { speakerPrefix, type ExportSource, type OutCue, type SpeakerStyle } from './source';
import { chooseCodeTable, decodeStlChar, encodeStlText, isDiacritic, type CodeTable } from './stl-charset';
import { cleanLine } from './text';

export const GSI_SIZE = 1024;
export const TTI_SIZE = 128;
const TF_SIZE = 112;
const NEWLINE = 0x8a;
const FILLER = 0x8f;
/** Longest row we write: the GSI MNC field has two digits; 40 keeps rows teletext-safe too. */
export const STL_MAX_ROW = 40;
/** Rows one subtitle may show (teletext's 23); a cue with more becomes consecutive subtitles. */
export const STL_MAX_ROWS = 23;

/** Tech 3264 language codes (GSI LC) for the languages we are likely to carry. */
const LANGUAGE_CODES: Record<string, string> = {
  sq: '01', br: '02', ca: '03', hr: '04', cy: '05', cs: '06', da: '07', de: '08', en: '09', es: '0A', eo: '0B',
  et: '0C', eu: '0D', fo: '0E', fr: '0F', fy: '10', ga: '11', gd: '12', gl: '13', is: '14', it: '15', lv: '18',
  lb: '19', lt: '1A', hu: '1B', mt: '1C', nl: '1D', no: '1E', nb: '1E', oc: '1F', pl: '20', pt: '21', ro: '22',
  rm: '23', sr: '24', sk: '25', sl: '26', fi: '27', sv: '28', tr: '29', ar: '7E', be: '79', bg: '77', zh: '75',
  el: '70', he: '6C', hi: '6B', ja: '69', ko: '65', mk: '63', ru: '56', uk: '49', vi: '46',
};

/**
 * How a DFC counts time. STL25.01 is 25 fps. STL30.01 is the NTSC family: we count frames at
 * 30000/1001 and label them drop-frame, as the ttconv reference reader (and NTSC practice) reads
 * it, so labels stay on wall-clock time and times agree with other readers to the millisecond.
 * Documents in the 30/60 family (30 and 29.97) get STL30.01, the rest STL25.01; frames are only a
 * unit here, times are kept.
 */
const NTSC = 30000 / 1001;
export function stlFrameRate(frameRate: number): number {
  const n = nominalFrameRate(frameRate);
  return n === 30 || n === 60 ? NTSC : 25;
}

/** [h, m, s, f] label of a frame count at an STL rate (drop-frame for NTSC). */
function stlLabel(frames: number, fps: number): [number, number, number, number] {
  if (fps !== 25) return dropFrameLabel(frames, fps);
  const s = Math.floor(frames / 25);
  return [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60, frames % 25];
}

function ascii(s: string, width: number): string {
   
  const a = s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]/g, '?');
  return a.length >= width ? a.slice(0, width) : a + ' '.repeat(width - a.length);
}

/** Rows of at most STL_MAX_ROW characters, wrapped at spaces (a longer word is cut: the format's limit). */
function stlRows(lines: string[]): string[] {
  const rows: string[] = [];
  for (const line of lines) {
    if (charCount(line) <= STL_MAX_ROW) {
      rows.push(line);
      continue;
    }
    let cur = '';
    let curLen = 0;
    for (const w of line.split(' ')) {
      const wl = charCount(w);
      if (!cur && wl <= STL_MAX_ROW) {
        cur = w;
        curLen = wl;
      } else if (cur && curLen + 1 + wl <= STL_MAX_ROW) {
        cur += ` ${w}`;
        curLen += 1 + wl;
      } else {
        if (cur) rows.push(cur);
        let rest = [...w];
        while (rest.length > STL_MAX_ROW) {
          rows.push(rest.slice(0, STL_MAX_ROW).join(''));
          rest = rest.slice(STL_MAX_ROW);
        }
        cur = rest.join('');
        curLen = rest.length;
      }
    }
    if (cur) rows.push(cur);
  }
  return rows;
}

/** A subtitle as one TTI group carries it. */
interface StlSubtitle {
  start_ms: number;
  end_ms: number;
  rows: string[];
}

/**
 * A cue with more rows than one subtitle shows becomes consecutive subtitles, its time shared in
 * proportion to the characters each shows (an even reading speed), so no text is ever dropped.
 */
function toSubtitles(cue: OutCue, rows: string[]): StlSubtitle[] {
  if (rows.length <= STL_MAX_ROWS) return [{ start_ms: cue.start_ms, end_ms: cue.end_ms, rows }];
  const parts: string[][] = [];
  for (let i = 0; i < rows.length; i += STL_MAX_ROWS) parts.push(rows.slice(i, i + STL_MAX_ROWS));
  const weights = parts.map((p) => p.reduce((n, r) => n + charCount(r), 0));
  const total = weights.reduce((a, b) => a + b, 0);
  const span = cue.end_ms - cue.start_ms;
  let acc = 0;
  return parts.map((p, j) => {
    const start = cue.start_ms + Math.round((span * acc) / total);
    acc += weights[j];
    return { start_ms: start, end_ms: cue.start_ms + Math.round((span * acc) / total), rows: p };
  });
}

export function writeStl(cues: OutCue[], src: ExportSource, speakers: SpeakerStyle = 'prefix', date: Date = new Date()): Uint8Array {
  const fps = stlFrameRate(src.frameRate);
  const nominal = nominalFrameRate(fps);
  const subs = cues.flatMap((c) => toSubtitles(c, stlRows([speakerPrefix(c, speakers) + c.lines[0], ...c.lines.slice(1)])));
  const texts = subs.map((s) => s.rows);
  const cct: CodeTable = chooseCodeTable(texts.map((r) => r.join(' ')).join(' '));
  const fields: number[][] = texts.map((rows) => {
    const bytes: number[] = [];
    rows.forEach((r, i) => {
      if (i) bytes.push(NEWLINE);
      bytes.push(...encodeStlText(r, cct));
    });
    return bytes;
  });
  const blockCount = fields.reduce((n, f) => n + Math.max(1, Math.ceil(f.length / TF_SIZE)), 0);
  if (subs.length > 65535) throw new FormatError('stl', `EBU STL holds at most 65535 subtitles, this document needs ${subs.length}`);
  const buf = new Uint8Array(GSI_SIZE + blockCount * TTI_SIZE);

  // Time codes in whole frames; starts never before the previous end, ends always after starts.
  const frames = subs.map((c) => [msToFrames(c.start_ms, fps), msToFrames(c.end_ms, fps)]);
  for (let i = 0; i < frames.length; i++) {
    if (i && frames[i][0] < frames[i - 1][1]) frames[i][0] = frames[i - 1][1];
    if (frames[i][1] <= frames[i][0]) frames[i][1] = frames[i][0] + 1;
  }
  const tcString = (f: number) => stlLabel(f, fps).map((v, i) => pad(i === 0 ? v % 24 : v, 2)).join('');
  const yymmdd = `${pad(date.getUTCFullYear() % 100, 2)}${pad(date.getUTCMonth() + 1, 2)}${pad(date.getUTCDate(), 2)}`;
  const maxRow = Math.max(1, ...texts.flatMap((r) => r.map(charCount)));
  const maxRows = Math.max(1, ...texts.map((r) => r.length));
  const gsi =
    '850' + // CPN: code page of the GSI block
    (nominal === 30 ? 'STL30.01' : 'STL25.01') + // DFC
    '0' + // DSC: open subtitling
    cct + // CCT
    (LANGUAGE_CODES[src.language.toLowerCase().split(/[-_]/)[0]] ?? '00') + // LC
    ascii(src.title, 32) + // OPT
    ascii('', 32) + // OET
    ascii('', 32) + // TPT
    ascii('', 32) + // TET
    ascii('', 32) + // TN
    ascii('', 32) + // TCD
    ascii('', 16) + // SLR
    yymmdd + // CD
    yymmdd + // RD
    '00' + // RN
    pad(blockCount, 5) + // TNB
    pad(subs.length, 5) + // TNS
    '001' + // TNG
    pad(Math.min(99, maxRow), 2) + // MNC
    pad(Math.min(99, maxRows), 2) + // MNR
    '1' + // TCS: time codes are for use
    tcString(msToFrames(src.offsetMs, fps)) + // TCP
    tcString(frames.length ? frames[0][0] : msToFrames(src.offsetMs, fps)) + // TCF
    '1' + // TND
    '1' + // DSN
    '   ' + // CO
    ascii('', 32) + // PUB
    ascii('', 32) + // EN
    ascii('', 32); // ECD
  for (let i = 0; i < gsi.length; i++) buf[i] = gsi.charCodeAt(i);
  buf.fill(0x20, gsi.length, GSI_SIZE); // spare bytes and user-defined area

  let off = GSI_SIZE;
  subs.forEach((_, n) => {
    const tf = fields[n];
    const parts = Math.max(1, Math.ceil(tf.length / TF_SIZE));
    const tc = (f: number, at: number) => {
      const [h, m, s, fr] = stlLabel(f, fps);
      buf[at] = h % 24;
      buf[at + 1] = m;
      buf[at + 2] = s;
      buf[at + 3] = fr;
    };
    for (let p = 0; p < parts; p++) {
      buf[off] = 0; // SGN
      buf[off + 1] = (n + 1) & 0xff; // SN, little-endian
      buf[off + 2] = ((n + 1) >> 8) & 0xff;
      buf[off + 3] = p === parts - 1 ? 0xff : p; // EBN: 0xFF marks the last block of a subtitle
      buf[off + 4] = 0; // CS: not cumulative
      tc(frames[n][0], off + 5); // TCI
      tc(frames[n][1], off + 9); // TCO
      buf[off + 13] = Math.max(1, 22 - 2 * (texts[n].length - 1)); // VP: bottom of the screen
      buf[off + 14] = 2; // JC: centred
      buf[off + 15] = 0; // CF: subtitle data, not a comment
      const chunk = tf.slice(p * TF_SIZE, (p + 1) * TF_SIZE);
      buf.set(chunk, off + 16);
      buf.fill(FILLER, off + 16 + chunk.length, off + TTI_SIZE);
      off += TTI_SIZE;
    }
  });
  return buf;
}

export interface StlInfo {
  frameRate: number;
  codeTable: string;
  /** TCP: the start-of-programme time code, HH:MM:SS:FF. */
  startOfProgramme: string;
  language: string;
  title: string;
  subtitles: number;
}

function field(b: Uint8Array, at: number, len: number): string {
  let s = '';
  for (let i = at; i < at + len; i++) s += String.fromCharCode(b[i]);
  return s;
}

function readGsi(b: Uint8Array): StlInfo & { blocks: number } {
  if (b.length < GSI_SIZE) throw new FormatError('stl', `the file is ${b.length} bytes, shorter than the 1024-byte GSI block`, { byteOffset: b.length });
  const dfc = field(b, 3, 8);
  const rates: Record<string, number> = { 'STL25.01': 25, 'STL30.01': NTSC, 'STL24.01': 24, 'STL23.01': 24000 / 1001, 'STL50.01': 50 };
  const frameRate = rates[dfc];
  if (!frameRate) throw new FormatError('stl', `unknown disk format code "${dfc}" (expected STL25.01 or STL30.01)`, { byteOffset: 3 });
  const cct = field(b, 12, 2);
  if (!['00', '01', '03'].includes(cct)) throw new FormatError('stl', `unsupported character code table "${cct}"`, { byteOffset: 12 });
  const tnb = field(b, 238, 5);
  if (!/^\s*\d+\s*$/.test(tnb)) throw new FormatError('stl', `the TTI block count "${tnb}" is not a number`, { byteOffset: 238 });
  const tcp = field(b, 256, 8);
  const code = Object.entries(LANGUAGE_CODES).find(([, c]) => c === field(b, 14, 2));
  return {
    frameRate,
    codeTable: cct,
    startOfProgramme: /^\d{8}$/.test(tcp) ? `${tcp.slice(0, 2)}:${tcp.slice(2, 4)}:${tcp.slice(4, 6)}:${tcp.slice(6, 8)}` : '00:00:00:00',
    language: code ? code[0] : '',
    title: field(b, 16, 32).trim(),
    subtitles: Number(field(b, 243, 5)) || 0,
    blocks: Number(tnb),
  };
}

/** The GSI facts a caller may want besides the cues (frame rate, start-of-programme time code). */
export function readStlInfo(input: Uint8Array): StlInfo {
  const { blocks: _, ...info } = readGsi(input);
  return info;
}

export function readStl(input: Uint8Array): CaptionContent {
  const info = readGsi(input);
  if ((input.length - GSI_SIZE) % TTI_SIZE !== 0) {
    throw new FormatError('stl', `the TTI area is not a whole number of 128-byte blocks`, { byteOffset: GSI_SIZE + Math.floor((input.length - GSI_SIZE) / TTI_SIZE) * TTI_SIZE });
  }
  const count = (input.length - GSI_SIZE) / TTI_SIZE;
  if (info.blocks !== count) throw new FormatError('stl', `the GSI block announces ${info.blocks} TTI blocks, the file holds ${count}`, { byteOffset: 238 });
  const nominal = nominalFrameRate(info.frameRate);
  const out = new CaptionBuilder();
  // Text bytes of the subtitle being read, across its extension blocks, and where each sits in the file.
  let pending: number[] = [];
  let offsets: number[] = [];
  for (let k = 0; k < count; k++) {
    const off = GSI_SIZE + k * TTI_SIZE;
    const ebn = input[off + 3];
    const cf = input[off + 15];
    if ((ebn > 0xef && ebn < 0xff) || cf === 1) continue; // user data, reserved, comments
    for (let i = off + 16; i < off + TTI_SIZE; i++) {
      if (input[i] === FILLER) continue;
      pending.push(input[i]);
      offsets.push(i);
    }
    if (ebn !== 0xff) continue;
    const tc = (at: number) => {
      const [h, m, s, f] = [input[at], input[at + 1], input[at + 2], input[at + 3]];
      if (m > 59 || s > 59 || f >= nominal) throw new FormatError('stl', `invalid time code ${h}:${m}:${s}:${f}`, { byteOffset: at });
      const frames = nominal === 30 && info.frameRate !== 30 ? dropFrameCount(h, m, s, f, info.frameRate) : (h * 3600 + m * 60 + s) * nominal + f;
      return framesToMs(frames, info.frameRate);
    };
    const start = tc(off + 5);
    const end = tc(off + 9);
    if (end < start) throw new FormatError('stl', 'the subtitle ends before it starts', { byteOffset: off + 9 });
    out.add(start, end, decodeTextField(Uint8Array.from(pending), offsets, info.codeTable as CodeTable));
    pending = [];
    offsets = [];
  }
  if (pending.length) throw new FormatError('stl', 'the last subtitle has extension blocks but no final block (EBN 0xFF)', { byteOffset: input.length - TTI_SIZE + 3 });
  return out.build();
}

/** The rows of a text field; a byte the code table leaves undefined is an error at its file offset, never U+FFFD. */
function decodeTextField(tf: Uint8Array, offsets: number[], cct: CodeTable): string[] {
  const lines: string[] = [];
  let cur = '';
  for (let i = 0; i < tf.length; ) {
    const b = tf[i];
    if (b === NEWLINE) {
      lines.push(cur);
      cur = '';
      i++;
    } else if (b < 0x20 || (b >= 0x80 && b < 0xa0)) {
      // Teletext spacing attributes show as a space; italics/underline/boxing codes take no room.
      if (b < 0x20) cur += ' ';
      i++;
    } else {
      const d = decodeStlChar(tf, i, cct);
      if (!d) {
        const hex = `0x${tf[i].toString(16).toUpperCase()}`;
        const what = isDiacritic(tf[i], cct) ? `diacritical mark ${hex} is not followed by a letter` : `byte ${hex} is undefined in character code table ${cct}`;
        throw new FormatError('stl', what, { byteOffset: offsets[i] });
      }
      cur += d.text;
      i = d.next;
    }
  }
  lines.push(cur);
  return lines.map(cleanLine).filter((l) => l.length > 0);
}
