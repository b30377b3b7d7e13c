/**
 * A segment's words are checked by a plain loop when they are exact Words and by zod otherwise
 * (common/transcript/model.ts): the result must be what z.array(Word) gives, value and errors.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DocumentBody, Segment, Word } from '../../../common/transcript/model';

const reference = z.array(Word);
const segment = (words: unknown) => ({ id: 's1', speaker_id: null, start_ms: 0, end_ms: 1, words });

describe('segment words', () => {
  it('takes a list of exact words as it is, and strips keys it does not know like zod does', () => {
    const words = [{ text: 'a', start_ms: 0, end_ms: 1, confidence: 1 }];
    const checked = Segment.parse(segment(words));
    expect(checked.words).toBe(words);
    expect(Segment.parse(segment([{ ...words[0], extra: 2 }])).words).toEqual(words);
  });

  it('names the bad field with its whole path', () => {
    const body = { document_type: 'transcript', metadata: {}, content: { kind: 'transcript', version: 1, speakers: [], segments: [segment([{ text: 'a', start_ms: 0, end_ms: 1, confidence: 1 }, { text: 'b', start_ms: -1, end_ms: 1.5, confidence: 2 }])] } };
    const r = DocumentBody.safeParse(body);
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join('.'))).toEqual([
      'content.segments.0.words.1.start_ms',
      'content.segments.0.words.1.end_ms',
      'content.segments.0.words.1.confidence',
    ]);
  });

  it('property: accepts, rejects and returns exactly what z.array(Word) does', () => {
    const num = fc.oneof(fc.integer({ min: -2, max: 5 }), fc.double({ min: -1, max: 2 }), fc.constantFrom(Number.NaN, Infinity, 2 ** 53), fc.string());
    const word = fc.record(
      { text: fc.oneof(fc.string(), fc.integer()), start_ms: num, end_ms: num, confidence: num, extra: fc.jsonValue() },
      { requiredKeys: [] },
    );
    const words = fc.oneof(fc.array(word, { maxLength: 5 }), fc.array(fc.constantFrom({ text: 'w', start_ms: 1, end_ms: 2, confidence: 0.5 }), { maxLength: 5 }), fc.jsonValue());
    fc.assert(
      fc.property(words, (ws) => {
        const ours = Segment.safeParse(segment(ws));
        const theirs = reference.safeParse(ws);
        expect(ours.success).toBe(theirs.success);
        if (ours.success && theirs.success) expect(ours.data.words).toEqual(theirs.data);
        else expect(ours.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual(theirs.error!.issues.map((i) => [['words', ...i.path].join('.'), i.message]));
      }),
      { numRuns: 1000 },
    );
  });
});
