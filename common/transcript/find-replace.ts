/**
 * Find and replace over a transcript (segment text) or a caption (cue lines), with whole-word and
 * case options. Replacing in a transcript goes through realignment, so word timings survive.
 */
import type { DocumentContent } from './model';
import { segmentText } from './model';
import { replaceSegmentText } from './realign';

export interface FindOptions {
  caseSensitive?: boolean;
  /** Match only where the query is not inside a longer word (Unicode letters and digits). */
  wholeWord?: boolean;
}

export interface FindMatch {
  /** Segment id (transcript) or cue id (caption). */
  item_id: string;
  /** That segment's or cue's place in the document (0 = the first). */
  item: number;
  /** Line within the cue; 0 for transcript segments. */
  line: number;
  /** Character offset (UTF-16) in the segment text or the cue line. */
  offset: number;
  length: number;
  text: string;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function findPattern(query: string, opts: FindOptions = {}): RegExp {
  let src = escapeRegExp(query);
  if (opts.wholeWord) src = `(?<![\\p{L}\\p{N}_])${src}(?![\\p{L}\\p{N}_])`;
  return new RegExp(src, opts.caseSensitive ? 'gu' : 'giu');
}

/** A segment's text or a cue's line; `lower` is the text lowercased, made the first time a query needs it. */
type Searchable = { id: string; item: number; line: number; text: string; ascii: boolean; lower?: string }[];

/**
 * The texts find searches, kept per content: contents are never changed in place (an edit makes a
 * new one), and each key typed into find would otherwise join every segment's words again (27,000
 * words in a 3-hour transcript).
 */
const searchables = new WeakMap<DocumentContent, Searchable>();

function searchable(content: DocumentContent): Searchable {
  let texts = searchables.get(content);
  if (!texts) {
    texts =
      content.kind === 'transcript'
        ? content.segments.map((s, item) => searchItem(s.id, item, 0, segmentText(s)))
        : content.cues.flatMap((c, item) => c.lines.map((text, line) => searchItem(c.id, item, line, text)));
    searchables.set(content, texts);
  }
  return texts;
}

const ASCII = /^[\x00-\x7f]*$/;
const searchItem = (id: string, item: number, line: number, text: string) => ({ id, item, line, text, ascii: ASCII.test(text) });

/** An ASCII letter, digit or underscore: where query and text are ASCII, what findPattern's whole-word \p{L}\p{N}_ comes to. */
function wordChar(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/**
 * Every place `query` occurs, in document order. An empty query finds nothing. An ASCII query in an
 * ASCII text is found with indexOf (in the lowercased text when case does not matter), where
 * ASCII's case folding and toLowerCase agree: a regular expression over a 3-hour transcript took
 * several times as long for the first key typed into find. Anything else goes through findPattern.
 */
export function findText(content: DocumentContent, query: string, opts: FindOptions = {}): FindMatch[] {
  if (!query) return [];
  const re = findPattern(query, opts);
  const fast = ASCII.test(query);
  const needle = opts.caseSensitive ? query : query.toLowerCase();
  const out: FindMatch[] = [];
  for (const item of searchable(content)) {
    if (!(fast && item.ascii)) {
      for (const m of item.text.matchAll(re)) out.push({ item_id: item.id, item: item.item, line: item.line, offset: m.index ?? 0, length: m[0].length, text: m[0] });
      continue;
    }
    const hay = opts.caseSensitive ? item.text : (item.lower ??= item.text.toLowerCase());
    for (let at = hay.indexOf(needle); at >= 0; ) {
      const end = at + needle.length;
      if (opts.wholeWord && ((at > 0 && wordChar(hay, at - 1)) || (end < hay.length && wordChar(hay, end)))) {
        at = hay.indexOf(needle, at + 1);
        continue;
      }
      out.push({ item_id: item.id, item: item.item, line: item.line, offset: at, length: needle.length, text: item.text.slice(at, end) });
      at = hay.indexOf(needle, end);
    }
  }
  return out;
}

/** Replace every match; returns the new content and the places that were replaced. */
export function replaceText<C extends DocumentContent>(
  content: C,
  query: string,
  replacement: string,
  opts: FindOptions = {},
): { content: C; matches: FindMatch[] } {
  const matches = findText(content, query, opts);
  if (matches.length === 0) return { content, matches };
  const re = findPattern(query, opts);
  const hit = new Set(matches.map((m) => m.item_id));
  // A function replacement keeps '$' in the user's text literal.
  const swap = (s: string) => s.replace(re, () => replacement);
  if (content.kind === 'transcript') {
    const segments = content.segments.map((s) => (hit.has(s.id) ? replaceSegmentText(s, swap(segmentText(s))) : s));
    return { content: { ...content, segments }, matches };
  }
  const cues = content.cues.map((c) => (hit.has(c.id) ? { ...c, lines: c.lines.map(swap) } : c));
  return { content: { ...content, cues }, matches };
}
