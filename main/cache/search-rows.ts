/**
 * The search rows of cached documents (text_segments) and their full-text entries (text_fts).
 *
 * Rows are written and indexed by replaceSearchRows, which adds the full-text entries in one run
 * after all of its deletes and inserts rather than by a trigger per inserted row. FTS5 writes its
 * pending terms out as a new index segment at every statement savepoint, and SQLite opens one for
 * each statement that fires a trigger: with a trigger per row, a first sync wrote one tiny index
 * segment per row and spent most of its writing time merging them. Deletes keep their trigger
 * (text_segments_ad): every row is indexed by the time replace returns, so it never removes
 * entries that were not added.
 */
import { stmt, type WritableDb } from './db';

export interface SearchRow {
  start_ms: number;
  /** The start time of each whitespace-separated word of text, comma-separated. */
  starts: string;
  text: string;
}

/**
 * Words a search row holds (about 80 s of speech): segments are grouped up to this, so the index
 * has fewer, larger rows. 240 against 120: a fifth less indexing time and a faster p95 query in
 * `npm run bench -- client`; a hit still names its matched word's own time.
 */
const ROW_WORDS = 240;
const SPACE = /\s/;

/**
 * Search rows built up a unit (segment or cue) at a time: `unit` before each unit's words, then
 * `add` for each. segmentRows walks a parsed body with it; the documents page scan
 * (documents-page.ts) feeds it straight from the bytes, so both make the same rows.
 */
export class RowBuilder {
  readonly rows: SearchRow[] = [];
  private words: string[] = [];
  private starts: number[] = [];
  private rowStart = 0;

  /** A unit of `count` words (as listed, before any split) follows; it starts a new row when the current one cannot hold them. */
  unit(count: number): void {
    if (this.words.length + count > ROW_WORDS) this.flush();
  }

  /** A unit's text at `at`: one word, or several split at whitespace, each given the same time. */
  add(text: string, at: number, unitStart: number): void {
    if (text && !SPACE.test(text)) {
      // One word (nearly always): no split.
      if (!this.words.length) this.rowStart = unitStart;
      this.words.push(text);
      this.starts.push(at);
      return;
    }
    for (const part of text.split(/\s+/)) {
      if (!part) continue;
      if (!this.words.length) this.rowStart = unitStart;
      this.words.push(part);
      this.starts.push(at);
    }
  }

  /** The rows, the last one included. */
  finish(): SearchRow[] {
    this.flush();
    return this.rows;
  }

  private flush(): void {
    if (this.words.length) this.rows.push({ start_ms: this.rowStart, starts: this.starts.join(','), text: this.words.join(' ') });
    this.words = [];
    this.starts = [];
  }
}

const utf8 = new TextDecoder();
const encoder = new TextEncoder();
const SPACE_BYTE = 0x20;
const COMMA_BYTE = 0x2c;

/**
 * RowBuilder's rows made from a body's UTF-8 bytes (documents-page.ts): a plain word and its
 * start's digits are copied as bytes and each row is decoded once, instead of a string made for
 * every word and every start and the lot joined again. A word that is not plain is split as
 * RowBuilder.add splits it. The digits are the start's own text: the scanner takes only plain
 * integers, which read back as written.
 */
export class ByteRowBuilder {
  /** A row's bytes are gathered here, shared by every builder of a thread (each is used to the end before the next starts). */
  private static text = new Uint8Array(16_384);
  private static starts = new Uint8Array(4_096);
  readonly rows: SearchRow[] = [];
  private textLength = 0;
  private startsLength = 0;
  private count = 0;
  private rowStart = 0;

  constructor(private readonly bytes: Uint8Array) {}

  /** As RowBuilder.unit. */
  unit(count: number): void {
    if (this.count + count > ROW_WORDS) this.flush();
  }

  /** A word whose bytes [from, to) are ASCII without a space (and not empty), starting at the integer written at [atFrom, atTo). */
  addPlain(from: number, to: number, atFrom: number, atTo: number, unitStart: number): void {
    this.next(unitStart, to - from, atTo - atFrom);
    const b = this.bytes;
    const text = ByteRowBuilder.text;
    let n = this.textLength;
    for (let k = from; k < to; k++) text[n++] = b[k];
    this.textLength = n;
    this.copyStart(atFrom, atTo);
  }

  /** A word's text that is not plain, split at whitespace as RowBuilder.add splits it. */
  addText(text: string, atFrom: number, atTo: number, unitStart: number): void {
    for (const part of text && !SPACE.test(text) ? [text] : text.split(/\s+/)) {
      if (!part) continue;
      this.next(unitStart, part.length * 3, atTo - atFrom);
      this.textLength += encoder.encodeInto(part, ByteRowBuilder.text.subarray(this.textLength)).written;
      this.copyStart(atFrom, atTo);
    }
  }

  /** The rows, the last one included. */
  finish(): SearchRow[] {
    this.flush();
    return this.rows;
  }

  /** Room for a word of up to `textBytes` and a start of `startBytes`, after the separators. */
  private next(unitStart: number, textBytes: number, startBytes: number): void {
    if (!this.count) this.rowStart = unitStart;
    if (this.textLength + textBytes + 1 > ByteRowBuilder.text.length) ByteRowBuilder.text = grown(ByteRowBuilder.text, this.textLength + textBytes + 1);
    if (this.startsLength + startBytes + 1 > ByteRowBuilder.starts.length) ByteRowBuilder.starts = grown(ByteRowBuilder.starts, this.startsLength + startBytes + 1);
    if (this.count++) {
      ByteRowBuilder.text[this.textLength++] = SPACE_BYTE;
      ByteRowBuilder.starts[this.startsLength++] = COMMA_BYTE;
    }
  }

  private copyStart(atFrom: number, atTo: number): void {
    const b = this.bytes;
    const starts = ByteRowBuilder.starts;
    let n = this.startsLength;
    for (let k = atFrom; k < atTo; k++) starts[n++] = b[k];
    this.startsLength = n;
  }

  private flush(): void {
    if (this.count) this.rows.push({ start_ms: this.rowStart, starts: utf8.decode(ByteRowBuilder.starts.subarray(0, this.startsLength)), text: utf8.decode(ByteRowBuilder.text.subarray(0, this.textLength)) });
    this.count = 0;
    this.textLength = 0;
    this.startsLength = 0;
  }
}

function grown(buffer: Uint8Array<ArrayBuffer>, need: number): Uint8Array<ArrayBuffer> {
  const bigger = new Uint8Array(Math.max(need, buffer.length * 2));
  bigger.set(buffer);
  return bigger;
}

/**
 * The searchable rows of a document body: consecutive transcript segments (caption cues) grouped
 * up to ROW_WORDS words, each with the start time of every word so a hit can name its moment.
 */
export function segmentRows(body: unknown): SearchRow[] {
  const content = (body as { content?: { kind?: string; segments?: unknown[]; cues?: unknown[] } } | null)?.content;
  if (!content) return [];
  const rows = new RowBuilder();
  if (content.kind === 'transcript') {
    for (const s of (content.segments ?? []) as { start_ms: number; words: { text: string; start_ms: number }[] }[]) {
      rows.unit(s.words.length);
      for (const w of s.words) rows.add(w.text, w.start_ms, s.start_ms);
    }
  } else if (content.kind === 'caption') {
    for (const c of (content.cues ?? []) as { start_ms: number; lines: string[] }[]) {
      // Counted as one word: a cue starts a new row only once this one is full.
      rows.unit(1);
      rows.add(c.lines.join(' '), c.start_ms, c.start_ms);
    }
  }
  return rows.finish();
}

/** Replaces each document's search rows with the given ones (none: null or empty), in the caller's transaction. */
export function replaceSearchRows(db: WritableDb, docs: Iterable<[documentId: string, rows: SearchRow[] | null]>): void {
  const del = stmt(db, 'DELETE FROM text_segments WHERE document_id = ?');
  const insert = stmt(db, 'INSERT INTO text_segments (document_id, start_ms, starts, text) VALUES (?, ?, ?, ?)');
  const index = stmt(db, 'INSERT INTO text_fts (rowid, text) VALUES (?, ?)');
  const given = new Map(docs); // a document given twice: the last rows count, written once
  for (const id of given.keys()) del.run(id);
  const added: [rowid: number | bigint, text: string][] = [];
  for (const [id, rows] of given) for (const r of rows ?? []) added.push([insert.run(id, r.start_ms, r.starts, r.text).lastInsertRowid, r.text]);
  for (const [rowid, text] of added) index.run(rowid, text);
}

/** Replaces one document's search rows; `body` as JSON text or as the parsed object. */
export function reindexDocument(db: WritableDb, documentId: string, body: string | object | null): void {
  replaceSearchRows(db, [[documentId, body ? segmentRows(typeof body === 'string' ? JSON.parse(body) : body) : null]]);
}

/** Every document's search rows again (a rebuilt cache's carried-over documents), a batch at a time. */
export function reindexAll(db: WritableDb): void {
  const BATCH = 100;
  const ids = (stmt(db, 'SELECT id FROM documents').all() as { id: string }[]).map((r) => r.id);
  const bodies = stmt(db, 'SELECT id, body FROM documents WHERE id IN (SELECT value FROM json_each(?))');
  for (let i = 0; i < ids.length; i += BATCH) {
    const docs = bodies.all(JSON.stringify(ids.slice(i, i + BATCH))) as { id: string; body: string | null }[];
    replaceSearchRows(db, docs.map((d) => [d.id, d.body ? segmentRows(JSON.parse(d.body)) : null]));
  }
}
