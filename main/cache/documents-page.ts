/**
 * A documents.list answer with content checked and turned into rows in one read of its bytes, for
 * the pull's parse thread (parse-worker.ts). JSON.parse builds some 25,000 objects for a 5,000-word
 * document, and zod, the cut of the body's text (json-members.ts) and its search rows each walked
 * them again: most of the parse thread's CPU per document.
 *
 * Here each body (`result[i].document`) is read from the bytes by a scanner that checks it against
 * the same schema (common/transcript/model.ts) and makes its search rows as it goes (search-rows.ts,
 * ByteRowBuilder); the body itself stays bytes, a view into the page, stored as the text they are.
 * It takes only the plain form a service writes: valid UTF-8, integers as plain digits,
 * confidences as 0, 1 or a decimal between, strings without escapes or control characters,
 * segments and words with their own keys each once, transcript content. The small parts (metadata, speakers, a summary, keys the schema does not
 * know) are JSON.parsed and checked by their zod schemas. The rest of the page, each body replaced
 * by a small valid one, is parsed and checked with the route's own schema.
 *
 * Any other form, and any page that check refuses, goes through the full check instead
 * (checkJsonAnswer: JSON.parse and zod over the whole page, then prepareDocumentsPage), so what
 * is accepted is what zod accepts, and a malformed answer is refused with the same error, naming
 * the route and the field.
 */
import { isUtf8 } from 'node:buffer';
import { z } from 'zod';
import type { Document } from '../../common/api';
import { DocumentMetadata, Speaker } from '../../common/transcript/model';
import { checkJsonAnswer, checkJsonText } from '../api/check';
import { keyIs, skipSpace, skipValue } from '../api/json-members';
import { prepareDocument, prepareDocumentsPage, type PreparedDocument } from './pull-apply';
import { ByteRowBuilder, type SearchRow } from './search-rows';

export interface CheckedDocumentsPage {
  docs: PreparedDocument[];
  count: number;
  total: number;
}

/** The page's documents as rows, with the count and total paging needs. Throws what checkJsonAnswer throws. */
export function checkDocumentsPage(status: number, bytes: Uint8Array, sessionId: string): CheckedDocumentsPage {
  const scanned = scanPlainBodies(bytes);
  if (scanned) {
    const data = checkedHeads(status, scanned);
    if (data) return { docs: data.result.map((d, i) => prepareDocument(d, sessionId, scanned.bodies[i])), count: data.result.length, total: data.total_results };
  }
  const { data, text } = checkJsonAnswer('documents.list', status, bytes);
  const page = data as DocumentsPage;
  return { docs: prepareDocumentsPage(page.result, sessionId, { bytes, text }), count: page.result.length, total: page.total_results };
}

type DocumentsPage = { result: Document[]; total_results: number };
/** A body's JSON as its UTF-8 bytes (the writer stores them as that text) and its search rows. */
type ScannedBody = { text: Uint8Array; rows: SearchRow[] };
type ScannedPage = { heads: string; bodies: (ScannedBody | undefined)[] };

/** A body the route's schema accepts, standing in for each scanned one while the rest of the page is checked. */
const STAND_IN = '{"document_type":"transcript","metadata":{},"content":{"kind":"transcript","version":1,"speakers":[],"segments":[]}}';

/** The page without its bodies, checked by the route's schema; null when refused (the full check then says why). */
function checkedHeads(status: number, scanned: ScannedPage): DocumentsPage | null {
  let data: DocumentsPage;
  try {
    data = checkJsonText('documents.list', status, scanned.heads) as DocumentsPage;
  } catch {
    return null;
  }
  // Each stand-in where the scan found a body, and no body the scan did not see.
  const matches = data.result.length === scanned.bodies.length && data.result.every((d, i) => (d.document !== undefined) === (scanned.bodies[i] !== undefined));
  return matches ? data : null;
}

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

const QUOTE = 0x22;
const SPACE = 0x20;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const ZERO = 0x30;
const ONE = 0x31;
const NINE = 0x39;
const DOT = 0x2e;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
/** Decimal digits of an integer the scanner reads itself: below 10^15, so always a safe integer. */
const MAX_DIGITS = 15;
/** Returned in place of an index: the value is not in the plain form, so the full check decides. */
const OTHER = -1;

const RESULT = encoder.encode('result');
const DOCUMENT = encoder.encode('document');
const key = (name: string) => encoder.encode(`"${name}"`);
const TEXT = key('text');
const START_MS = key('start_ms');
const END_MS = key('end_ms');
const CONFIDENCE = key('confidence');
const ID = key('id');
const SPEAKER_ID = key('speaker_id');
const WORDS = key('words');
const KIND = key('kind');
const VERSION = key('version');
const SPEAKERS = key('speakers');
const SEGMENTS = key('segments');
const SUMMARY = key('summary');
const DOCUMENT_TYPE = key('document_type');
const METADATA = key('metadata');
const CONTENT = key('content');
const TRANSCRIPT = key('transcript');
const CAPTION = key('caption');
const NULL = encoder.encode('null');

const Speakers = z.array(Speaker);
const Summary = z.string();

const isDigit = (c: number) => c >= ZERO && c <= NINE;

/** Do the bytes at `at` equal `word`? */
function bytesAre(b: Uint8Array, at: number, word: Uint8Array): boolean {
  for (let k = 0; k < word.length; k++) if (b[at + k] !== word[k]) return false;
  return true;
}

/** Is the token [from, to) exactly `word`? */
const tokenIs = (b: Uint8Array, from: number, to: number, word: Uint8Array) => to - from === word.length && bytesAre(b, from, word);

/**
 * The page's bodies read by the scanner, and the page's text with each replaced by STAND_IN;
 * null when a body is not in the plain form (or the page is not an object with a result list,
 * or not valid UTF-8: decoding would put U+FFFD in the text where the bytes have a bad sequence).
 */
export function scanPlainBodies(bytes: Uint8Array): ScannedPage | null {
  if (!isUtf8(bytes)) return null;
  const scan = new BodyScan(bytes);
  try {
    return scan.page();
  } catch {
    return null; // the structure walk met something that is not JSON: the full check refuses it
  }
}

class BodyScan {
  /** Where each body lies in the page's bytes, in page order. */
  private spans: { from: number; to: number }[] = [];
  private bodies: (ScannedBody | undefined)[] = [];
  /** The last integer read. */
  private num = 0;
  /** The current segment's words: where each one's text lies, and its start. */
  private wordFrom: number[] = [];
  private wordTo: number[] = [];
  private words = 0;
  private rows: ByteRowBuilder;
  /** Where the last integer's digits lie. */
  private numFrom = 0;
  private numTo = 0;
  private wordAtFrom: number[] = [];
  private wordAtTo: number[] = [];
  private wordPlain: boolean[] = [];
  /** The last word text read is plain: not empty, ASCII, no space (ByteRowBuilder.addPlain). */
  private plainText = false;

  constructor(private readonly b: Uint8Array) {
    this.rows = new ByteRowBuilder(b);
  }

  private str(from: number, to: number): string {
    return utf8.decode(this.b.subarray(from, to));
  }

  page(): ScannedPage | null {
    const b = this.b;
    const top = skipSpace(b, b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0);
    if (b[top] !== OPEN_OBJECT) return null;
    let listed = false;
    let plain = true;
    this.members(top, (keyFrom, keyTo, at) => {
      if (!keyIs(b, keyFrom, keyTo, RESULT)) return skipValue(b, at);
      // A key given twice: the last list is the one JSON.parse keeps.
      this.spans = [];
      this.bodies = [];
      listed = b[at] === OPEN_ARRAY;
      if (!listed) return skipValue(b, at);
      const end = this.list(at);
      if (end === OTHER) plain = false;
      return end === OTHER ? skipValue(b, at) : end;
    });
    if (!listed || !plain) return null;
    let heads = '';
    let from = 0;
    for (const s of this.spans) {
      heads += this.str(from, s.from) + STAND_IN;
      from = s.to;
    }
    return { heads: heads + this.str(from, b.length), bodies: this.bodies };
  }

  /** Walks the members of the object at `i` (its `{`); `onMember` returns the index after the value. The index after the object. */
  private members(i: number, onMember: (keyFrom: number, keyTo: number, at: number) => number): number {
    const b = this.b;
    i = skipSpace(b, i + 1);
    if (b[i] === CLOSE_OBJECT) return i + 1;
    for (;;) {
      if (b[i] !== QUOTE) throw new SyntaxError('expected a key');
      const keyTo = skipValue(b, i);
      const colon = skipSpace(b, keyTo);
      if (b[colon] !== COLON) throw new SyntaxError('expected a colon');
      i = skipSpace(b, onMember(i, keyTo, skipSpace(b, colon + 1)));
      if (b[i] === CLOSE_OBJECT) return i + 1;
      if (b[i] !== COMMA) throw new SyntaxError('expected a comma');
      i = skipSpace(b, i + 1);
    }
  }

  /** The result list at `i`: each element's body scanned. OTHER when one is not plain. */
  private list(i: number): number {
    const b = this.b;
    i = skipSpace(b, i + 1);
    if (b[i] === CLOSE_ARRAY) return i + 1;
    for (;;) {
      let body: { from: number; to: number; scanned: ScannedBody } | undefined;
      let plain = true;
      if (b[i] === OPEN_OBJECT) {
        i = this.members(i, (keyFrom, keyTo, at) => {
          if (!keyIs(b, keyFrom, keyTo, DOCUMENT)) return skipValue(b, at);
          const end = this.body(at);
          if (end === OTHER) {
            plain = false;
            return skipValue(b, at);
          }
          body = { from: at, to: end, scanned: { text: b.subarray(at, end), rows: this.rows.finish() } };
          return end;
        });
      } else i = skipValue(b, i);
      if (!plain) return OTHER;
      if (body) this.spans.push(body);
      this.bodies.push(body?.scanned);
      i = skipSpace(b, i);
      if (b[i] === CLOSE_ARRAY) return i + 1;
      if (b[i] !== COMMA) throw new SyntaxError('expected a comma');
      i = skipSpace(b, i + 1);
    }
  }

  /**
   * Walks a plain object's members, each key without escapes; `onMember(keyFrom, keyTo, at)`
   * returns the index after the value or OTHER. The index after the object, or OTHER.
   */
  private plainMembers(i: number, onMember: (keyFrom: number, keyTo: number, at: number) => number): number {
    const b = this.b;
    i = skipSpace(b, i + 1);
    if (b[i] === CLOSE_OBJECT) return i + 1;
    for (;;) {
      const keyTo = this.string(i);
      if (keyTo === OTHER) return OTHER;
      const colon = skipSpace(b, keyTo);
      if (b[colon] !== COLON) return OTHER;
      const end = onMember(i, keyTo, skipSpace(b, colon + 1));
      if (end === OTHER) return OTHER;
      i = skipSpace(b, end);
      if (b[i] === CLOSE_OBJECT) return i + 1;
      if (b[i] !== COMMA) return OTHER;
      i = skipSpace(b, i + 1);
    }
  }

  /** A DocumentBody at `i`; its rows are left in this.rows. */
  private body(i: number): number {
    const b = this.b;
    if (b[i] !== OPEN_OBJECT) return OTHER;
    this.rows = new ByteRowBuilder(b);
    let seen = 0;
    const end = this.plainMembers(i, (k, kTo, at) => {
      let bit: number;
      let to: number;
      if (tokenIs(b, k, kTo, DOCUMENT_TYPE)) {
        bit = 1;
        to = this.string(at);
        if (to !== OTHER && !tokenIs(b, at, to, TRANSCRIPT) && !tokenIs(b, at, to, CAPTION)) return OTHER;
      } else if (tokenIs(b, k, kTo, METADATA)) {
        bit = 2;
        to = this.parsed(at, DocumentMetadata);
      } else if (tokenIs(b, k, kTo, CONTENT)) {
        bit = 4;
        to = this.content(at);
      } else return this.parsed(at, null); // not in the schema: dropped by zod, but it must be JSON
      if (seen & bit) return OTHER;
      seen |= bit;
      return to;
    });
    return seen === 7 ? end : OTHER;
  }

  /** A transcript's content at `i` (anything else: OTHER). */
  private content(i: number): number {
    const b = this.b;
    if (b[i] !== OPEN_OBJECT) return OTHER;
    let seen = 0;
    const end = this.plainMembers(i, (k, kTo, at) => {
      let bit: number;
      let to: number;
      if (tokenIs(b, k, kTo, KIND)) {
        bit = 1;
        to = this.string(at);
        if (to !== OTHER && !tokenIs(b, at, to, TRANSCRIPT)) return OTHER;
      } else if (tokenIs(b, k, kTo, VERSION)) {
        bit = 2;
        to = this.integer(at);
        if (this.num !== 1) return OTHER;
      } else if (tokenIs(b, k, kTo, SPEAKERS)) {
        bit = 4;
        to = this.parsed(at, Speakers);
      } else if (tokenIs(b, k, kTo, SEGMENTS)) {
        bit = 8;
        to = this.segments(at);
      } else if (tokenIs(b, k, kTo, SUMMARY)) {
        bit = 16;
        to = this.parsed(at, Summary);
      } else return this.parsed(at, null);
      if (seen & bit) return OTHER;
      seen |= bit;
      return to;
    });
    return (seen & 15) === 15 ? end : OTHER;
  }

  private segments(i: number): number {
    const b = this.b;
    if (b[i] !== OPEN_ARRAY) return OTHER;
    i = skipSpace(b, i + 1);
    if (b[i] === CLOSE_ARRAY) return i + 1;
    for (;;) {
      i = this.segment(i);
      if (i === OTHER) return OTHER;
      i = skipSpace(b, i);
      if (b[i] === CLOSE_ARRAY) return i + 1;
      if (b[i] !== COMMA) return OTHER;
      i = skipSpace(b, i + 1);
    }
  }

  /** A Segment at `i`: its words go to the rows once it is whole (its start may come after them). */
  private segment(i: number): number {
    const b = this.b;
    if (b[i] !== OPEN_OBJECT) return OTHER;
    let seen = 0;
    let start = 0;
    this.words = 0;
    const end = this.plainMembers(i, (k, kTo, at) => {
      let bit: number;
      let to: number;
      if (tokenIs(b, k, kTo, ID)) {
        bit = 1;
        to = this.string(at);
        if (to - at < 3) return OTHER; // min(1): at least one character between the quotes
      } else if (tokenIs(b, k, kTo, SPEAKER_ID)) {
        bit = 2;
        to = tokenIs(b, at, at + NULL.length, NULL) ? at + NULL.length : this.string(at);
      } else if (tokenIs(b, k, kTo, START_MS)) {
        bit = 4;
        to = this.integer(at);
        start = this.num;
      } else if (tokenIs(b, k, kTo, END_MS)) {
        bit = 8;
        to = this.integer(at);
      } else if (tokenIs(b, k, kTo, WORDS)) {
        bit = 16;
        to = this.wordList(at);
      } else return OTHER;
      if (seen & bit) return OTHER;
      seen |= bit;
      return to;
    });
    if (seen !== 31 || end === OTHER) return OTHER;
    const rows = this.rows;
    rows.unit(this.words);
    for (let w = 0; w < this.words; w++) {
      const [from, to, atFrom, atTo] = [this.wordFrom[w], this.wordTo[w], this.wordAtFrom[w], this.wordAtTo[w]];
      if (this.wordPlain[w]) rows.addPlain(from, to, atFrom, atTo, start);
      else rows.addText(this.str(from, to), atFrom, atTo, start);
    }
    return end;
  }

  private wordList(i: number): number {
    const b = this.b;
    if (b[i] !== OPEN_ARRAY) return OTHER;
    i = skipSpace(b, i + 1);
    if (b[i] === CLOSE_ARRAY) return i + 1;
    for (;;) {
      i = this.word(i);
      if (i === OTHER) return OTHER;
      i = skipSpace(b, i);
      if (b[i] === CLOSE_ARRAY) return i + 1;
      if (b[i] !== COMMA) return OTHER;
      i = skipSpace(b, i + 1);
    }
  }

  /**
   * A Word at `i`: its four keys, each once, nothing else. The member loop is written out here
   * rather than given to plainMembers: this runs for every word, and a callback per word costs a
   * fifth of the scan.
   */
  private word(i: number): number {
    const b = this.b;
    if (b[i] !== OPEN_OBJECT) return OTHER;
    let seen = 0;
    let from = 0;
    let to = 0;
    let atFrom = 0;
    let atTo = 0;
    let plain = false;
    i = skipSpace(b, i + 1);
    for (;;) {
      const k = i;
      const kTo = this.string(k);
      if (kTo === OTHER) return OTHER;
      const colon = skipSpace(b, kTo);
      if (b[colon] !== COLON) return OTHER;
      const v = skipSpace(b, colon + 1);
      let bit: number;
      if (tokenIs(b, k, kTo, TEXT)) {
        bit = 1;
        i = this.wordText(v);
        from = v + 1;
        to = i - 1;
        plain = this.plainText;
      } else if (tokenIs(b, k, kTo, START_MS)) {
        bit = 2;
        i = this.integer(v);
        atFrom = this.numFrom;
        atTo = this.numTo;
      } else if (tokenIs(b, k, kTo, END_MS)) {
        bit = 4;
        i = this.integer(v);
      } else if (tokenIs(b, k, kTo, CONFIDENCE)) {
        bit = 8;
        i = this.unitInterval(v);
      } else return OTHER;
      if (i === OTHER || seen & bit) return OTHER;
      seen |= bit;
      i = skipSpace(b, i);
      if (b[i] === CLOSE_OBJECT) break;
      if (b[i] !== COMMA) return OTHER;
      i = skipSpace(b, i + 1);
    }
    if (seen !== 15) return OTHER;
    const n = this.words++;
    this.wordFrom[n] = from;
    this.wordTo[n] = to;
    this.wordAtFrom[n] = atFrom;
    this.wordAtTo[n] = atTo;
    this.wordPlain[n] = plain;
    return i + 1;
  }

  /** As string, and whether the text is plain (this.plainText). */
  private wordText(i: number): number {
    const b = this.b;
    if (b[i] !== QUOTE) return OTHER;
    let plain = true;
    for (let j = i + 1; j < b.length; j++) {
      const c = b[j];
      if (c === QUOTE) {
        this.plainText = plain && j > i + 1;
        return j + 1;
      }
      if (c === BACKSLASH || c < 0x20) return OTHER;
      if (c === SPACE || c >= 0x80) plain = false;
    }
    return OTHER;
  }

  /** A string at `i` without escapes or control characters; the index after its closing quote. */
  private string(i: number): number {
    const b = this.b;
    if (b[i] !== QUOTE) return OTHER;
    for (let j = i + 1; j < b.length; j++) {
      const c = b[j];
      if (c === QUOTE) return j + 1;
      if (c === BACKSLASH || c < 0x20) return OTHER;
    }
    return OTHER;
  }

  /** A non-negative integer in plain digits at `i` (no fraction, exponent or leading zero), into this.num. */
  private integer(i: number): number {
    const b = this.b;
    const first = i;
    let c = b[i];
    let n = 0;
    if (c === ZERO) c = b[++i];
    else if (c >= ONE && c <= NINE) {
      do {
        n = n * 10 + (c - ZERO);
        c = b[++i];
      } while (isDigit(c));
      if (i - first > MAX_DIGITS) return OTHER;
    } else return OTHER;
    if (c === DOT || c === LOWER_E || c === UPPER_E || isDigit(c)) return OTHER;
    this.num = n;
    this.numFrom = first;
    this.numTo = i;
    return i;
  }

  /** A number from 0 to 1 at `i`: 0, 1, 0.ddd or 1.000 (no exponent). */
  private unitInterval(i: number): number {
    const b = this.b;
    const lead = b[i];
    if (lead !== ZERO && lead !== ONE) return OTHER;
    let c = b[++i];
    if (c === DOT) {
      c = b[++i];
      if (!isDigit(c)) return OTHER;
      do {
        if (lead === ONE && c !== ZERO) return OTHER;
        c = b[++i];
      } while (isDigit(c));
    }
    if (c === LOWER_E || c === UPPER_E || isDigit(c)) return OTHER;
    return i;
  }

  /** Any JSON value at `i`, parsed and checked by `schema` (null: JSON only). */
  private parsed(i: number, schema: z.ZodType | null): number {
    let end: number;
    let value: unknown;
    try {
      end = skipValue(this.b, i);
      value = JSON.parse(this.str(i, end));
    } catch {
      return OTHER;
    }
    return !schema || schema.safeParse(value).success ? end : OTHER;
  }
}
