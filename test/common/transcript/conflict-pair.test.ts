/** The side-by-side pairing of a conflict copy and its original, and the content the picks make. */
import { describe, expect, it } from 'vitest';
import { alignConflict, applyConflictChoices, undecided, wordDiff } from '../../../common/transcript/conflict-pair';
import { plainText, type CaptionContent, type Segment, type TranscriptContent } from '../../../common/transcript/model';

const seg = (id: string, start: number, text: string, speaker: string | null = null): Segment => ({
  id, speaker_id: speaker, start_ms: start, end_ms: start + 900, words: text.split(' ').map((t, i) => ({ text: t, start_ms: start + i * 100, end_ms: start + i * 100 + 90, confidence: 1 })),
});
const doc = (segments: Segment[], speakers: TranscriptContent['speakers'] = []): TranscriptContent => ({ kind: 'transcript', version: 1, speakers, segments });

// Theirs added s4 and dropped s3; ours changed s2 (with a new speaker) and kept s3.
const theirs = doc([seg('s1', 0, 'same words'), seg('s2', 1000, 'their take'), seg('s4', 3000, 'only theirs')]);
const ours = doc([seg('s1', 0, 'same words'), seg('s2', 1000, 'my take', 'spk9'), seg('s3', 2000, 'only mine')], [{ id: 'spk9', name: 'Ada' }]);

describe('conflict pair', () => {
  it('aligns by id in time order, one-sided segments included, equal ones marked', () => {
    const rows = alignConflict(theirs, ours, ['s2']);
    expect(rows.map((r) => [r.id, r.status, r.bothChanged, r.theirs?.text ?? null, r.ours?.text ?? null, r.ours?.speaker ?? null])).toEqual([
      ['s1', 'equal', false, 'same words', 'same words', null],
      ['s2', 'differs', true, 'their take', 'my take', 'Ada'],
      ['s3', 'differs', false, null, 'only mine', null],
      ['s4', 'differs', false, 'only theirs', null, null],
    ]);
    expect(undecided(rows, { s2: 'ours' })).toEqual(['s3', 's4']);
  });

  it('takes each pick; a segment absent on the picked side goes; a picked speaker comes along', () => {
    const out = applyConflictChoices(theirs, ours, { s2: 'ours', s3: 'ours', s4: 'ours' }) as TranscriptContent;
    expect(plainText(out)).toBe('same words\nmy take\nonly mine');
    expect(out.speakers).toEqual([{ id: 'spk9', name: 'Ada' }]);
    const back = applyConflictChoices(theirs, ours, { s2: 'theirs', s3: 'theirs', s4: 'theirs' });
    expect(back).toEqual(theirs);
    expect(() => applyConflictChoices(theirs, ours, { s2: 'ours' })).toThrow(/2 still undecided/);
  });

  it('pairs captions cue by cue, and refuses to pair different kinds', () => {
    const cue = (id: string, start: number, ...lines: string[]) => ({ id, start_ms: start, end_ms: start + 2000, lines });
    const t: CaptionContent = { kind: 'caption', version: 1, speakers: [], cues: [cue('c1', 0, 'Hello there'), cue('c2', 2000, 'their line')] };
    const o: CaptionContent = { kind: 'caption', version: 1, speakers: [], cues: [cue('c1', 0, 'Hello there'), cue('c2', 2000, 'my line', 'and more')] };
    expect(alignConflict(t, o).map((r) => [r.id, r.status, r.ours?.text])).toEqual([['c1', 'equal', 'Hello there'], ['c2', 'differs', 'my line\nand more']]);
    expect((applyConflictChoices(t, o, { c2: 'ours' }) as CaptionContent).cues[1].lines).toEqual(['my line', 'and more']);
    expect(() => alignConflict(t, theirs)).toThrow(/not the same kind/);
  });

  it('marks the words that differ', () => {
    const d = wordDiff('the quick brown fox', 'the slow brown dog jumps');
    expect(d.a.filter((p) => p.changed).map((p) => p.text)).toEqual(['quick', 'fox']);
    expect(d.b.filter((p) => p.changed).map((p) => p.text)).toEqual(['slow', 'dog jumps']);
    expect(d.a.map((p) => p.text).join('')).toBe('the quick brown fox');
    expect(d.b.map((p) => p.text).join('')).toBe('the slow brown dog jumps');
    // Line breaks (caption lines) stay where they were.
    const lines = wordDiff('one two\nthree', 'one TWO\nthree');
    expect(lines.b).toEqual([{ text: 'one ', changed: false }, { text: 'TWO', changed: true }, { text: '\nthree', changed: false }]);
  });
});
