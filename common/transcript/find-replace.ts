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

type Searchable = { id: string; item: number; line: number; text: string }[];

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
        ? content.segments.map((s, item) => ({ id: s.id, item, line: 0, text: segmentText(s) }))
        : content.cues.flatMap((c, item) => c.lines.map((text, line) => ({ id: c.id, item, line, text })));
    searchables.set(content, texts);
  }
  return texts;
}

/** Every place `query` occurs, in document order. An empty query finds nothing. */
export function findText(content: DocumentContent, query: string, opts: FindOptions = {}): FindMatch[] {
  if (!query) return [];
  const re = findPattern(query, opts);
  const out: FindMatch[] = [];
  for (const item of searchable(content)) {
    for (const m of item.text.matchAll(re)) {
      out.push({ item_id: item.id, item: item.item, line: item.line, offset: m.index ?? 0, length: m[0].length, text: m[0] });
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
