import { describe, expect, it } from 'vitest';
import { EditError, mergeSpeakers, mergeSpeakersAs, renameSpeaker, type CaptionContent, type TranscriptContent } from '../../../common/transcript';

const words = (texts: string, t0: number) => texts.split(' ').map((text, i) => ({ text, start_ms: t0 + i * 400, end_ms: t0 + i * 400 + 300, confidence: 0.9 }));
/** Ann and "A. Smith" are one person; Bob is another. */
function transcript(): TranscriptContent {
  return {
    kind: 'transcript',
    version: 1,
    speakers: [{ id: 'a', name: 'Ann' }, { id: 'b', name: 'Bob' }, { id: 'c', name: 'A. Smith' }],
    segments: [
      { id: 's1', speaker_id: 'a', start_ms: 0, end_ms: 1500, words: words('Hello there', 0) },
      { id: 's2', speaker_id: 'b', start_ms: 2000, end_ms: 3100, words: words('Cats and dogs.', 2000) },
      { id: 's3', speaker_id: 'c', start_ms: 4000, end_ms: 5000, words: words('Me again', 4000) },
      { id: 's4', speaker_id: null, start_ms: 6000, end_ms: 7000, words: words('Nobody', 6000) },
    ],
  };
}
const captions = (): CaptionContent => ({
  kind: 'caption',
  version: 1,
  speakers: [{ id: 'a', name: 'Ann' }, { id: 'c', name: 'A. Smith' }],
  cues: [
    { id: 'c1', start_ms: 0, end_ms: 1000, lines: ['Hello'], speaker_id: 'c' },
    { id: 'c2', start_ms: 1000, end_ms: 2000, lines: ['there'], speaker_id: 'a' },
    { id: 'c3', start_ms: 2000, end_ms: 3000, lines: ['quiet'] },
  ],
});

describe('mergeSpeakersAs', () => {
  it('gives every segment of the merged speaker to the kept one, drops the other, and renames the kept one', () => {
    const before = transcript();
    const t = mergeSpeakersAs(before, 'a', 'c', '  Ann Smith ');
    expect(t.speakers).toEqual([{ id: 'a', name: 'Ann Smith' }, { id: 'b', name: 'Bob' }]);
    expect(t.segments.map((s) => s.speaker_id)).toEqual(['a', 'b', 'a', null]);
    // Pure: the content it started from (what undo goes back to) is untouched.
    expect(before.speakers).toHaveLength(3);
    expect(before.segments[2].speaker_id).toBe('c');
  });

  it('keeps the kept speaker\'s name when no name (or a blank one) is given', () => {
    expect(mergeSpeakersAs(transcript(), 'c', 'a').speakers.map((s) => s.name)).toEqual(['Bob', 'A. Smith']);
    expect(mergeSpeakersAs(transcript(), 'c', 'a', '   ').speakers.find((s) => s.id === 'c')?.name).toBe('A. Smith');
  });

  it('does the same over caption cues, leaving cues without a speaker alone', () => {
    const c = mergeSpeakersAs(captions(), 'a', 'c', 'Ann Smith');
    expect(c.speakers).toEqual([{ id: 'a', name: 'Ann Smith' }]);
    expect(c.cues.map((x) => x.speaker_id)).toEqual(['a', 'a', undefined]);
  });

  it('equals a merge followed by a rename', () => {
    expect(mergeSpeakersAs(transcript(), 'b', 'a', 'Robert')).toEqual(renameSpeaker(mergeSpeakers(transcript(), 'b', 'a'), 'b', 'Robert'));
  });

  it('refuses one speaker twice and speakers that do not exist, changing nothing', () => {
    expect(() => mergeSpeakersAs(transcript(), 'a', 'a', 'X')).toThrow(EditError);
    expect(() => mergeSpeakersAs(transcript(), 'a', 'zz', 'X')).toThrow(/no speaker with id "zz"/);
    expect(() => mergeSpeakersAs(transcript(), 'zz', 'a')).toThrow(EditError);
  });
});
