/**
 * Offensive words, from the maintained List of Dirty, Naughty, Obscene and Otherwise Bad Words
 * (npm naughty-words, one list per language). Two uses: the default engine leaves the English
 * list's single words (and their inflections) out of what its decoder may recognise, so it never
 * hears a word the speaker did not say; and masking, which runs on any engine's words in any
 * listed language and keeps each masked word's first letter ("s***").
 */
import { createRequire } from 'node:module';
import type { CaptionContent, TranscriptContent, Word } from '../../common/transcript/model';

const lists = createRequire(import.meta.url)('naughty-words') as Record<string, string[]>;

/** The list for a language key ("en-US" -> en); null when the list has no such language. */
export function offensiveList(language: string): string[] | null {
  const base = language.toLowerCase().split(/[-_]/)[0];
  return lists[language] ?? lists[base] ?? (base === 'english' ? lists.en : null);
}

/** Dictionary words the decoder must not offer: the list's single words and their inflections. */
export function excludedFromDecoder(language: string): (word: string) => boolean {
  const words = new Set((offensiveList(language) ?? []).filter((w) => /^[a-z']+$/.test(w)));
  return (word) => {
    const w = word.toLowerCase().replace(/\(\d+\)$/, '');
    if (words.has(w)) return true;
    const stem = /^(.+?)(s|es|ed|ing|er|ers|y)$/.exec(w);
    return !!stem && words.has(stem[1]);
  };
}

const norm = (text: string) => text.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
const masked = (text: string) => text.replace(/(\p{L})([\p{L}\p{N}'’-]*)/u, (_, first: string, rest: string) => first + '*'.repeat(rest.length));

/** Masks listed words and phrases (up to four words) in a run of words; answers how many words it masked. */
function maskRun<T>(items: T[], textOf: (t: T) => string, setText: (t: T, text: string) => T, list: Set<string>, longest: number): { items: T[]; count: number } {
  const out = [...items];
  let count = 0;
  for (let i = 0; i < out.length; i++) {
    for (let n = Math.min(longest, out.length - i); n >= 1; n--) {
      const phrase = out.slice(i, i + n).map((t) => norm(textOf(t))).join(' ');
      if (!list.has(phrase)) continue;
      for (let k = i; k < i + n; k++) out[k] = setText(out[k], masked(textOf(out[k])));
      count += n;
      i += n - 1;
      break;
    }
  }
  return { items: out, count };
}

/** The metadata's word on masking. */
export function maskNote(masked: number | null): Record<string, unknown> {
  return masked === null ? { mask: true, masked: 0, note: 'There is no word list for this language, so nothing was masked.' } : { mask: true, masked };
}

export interface MaskResult {
  transcript: TranscriptContent;
  captions?: CaptionContent;
  /** Words masked (transcript and captions together); null: no list for the language. */
  masked: number | null;
}

/** Masks the offensive words of a transcript (and of given captions) for the language. */
export function maskOffensive(language: string, transcript: TranscriptContent, captions?: CaptionContent): MaskResult {
  const list = offensiveList(language);
  if (!list) return { transcript, captions, masked: null };
  const set = new Set(list.map((w) => w.toLowerCase()));
  const longest = Math.min(4, Math.max(...list.map((w) => w.split(' ').length)));
  let total = 0;
  const segments = transcript.segments.map((s) => {
    const r = maskRun<Word>(s.words, (w) => w.text, (w, text) => ({ ...w, text }), set, longest);
    total += r.count;
    return r.count ? { ...s, words: r.items } : s;
  });
  const cues = captions?.cues.map((c) => {
    const lines = c.lines.map((line) => {
      const r = maskRun<string>(line.split(' '), (t) => t, (_, text) => text, set, longest);
      total += r.count;
      return r.items.join(' ');
    });
    return { ...c, lines };
  });
  return { transcript: { ...transcript, segments }, captions: captions && cues ? { ...captions, cues } : captions, masked: total };
}
