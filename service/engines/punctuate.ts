/**
 * The legacy create's `punctuation`. pocketsphinx gives lowercase words and no punctuation, and we
 * have no punctuation model, so the only honest thing to add is what the timing tells us: each
 * segment (an utterance, cut at a pause) is written as a sentence, its first word capitalised and
 * a full stop after its last. Sentence ends inside one utterance are not found.
 */
import type { Segment } from '../../common/transcript/model';

export const PUNCTUATION_NOTE = 'Each pause-delimited segment is written as a sentence (capital first letter, final full stop); the speech engine itself gives no punctuation.';

const capitalise = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

export function sentencePerSegment(segments: Segment[]): Segment[] {
  return segments.map((s) => {
    if (s.words.length === 0) return s;
    const words = s.words.map((w) => ({ ...w }));
    words[0].text = capitalise(words[0].text);
    const last = words.at(-1)!;
    if (!/[.!?]$/.test(last.text)) last.text += '.';
    return { ...s, words };
  });
}
