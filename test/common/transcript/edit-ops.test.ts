import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addSpeaker, assignSpeaker, dropFrameCount, dropFrameLabel, EditError, timecodeToFrames, findText, mergeCues, mergeSegments, mergeSpeakers, msToTimecode, renameSpeaker, replaceText,
  findPattern, setTimecode, shiftTimings, splitCue, splitSegment, timecodeToMs, type CaptionContent, type TimecodeCarrier, type TranscriptContent,
} from '../../../common/transcript';

function transcript(): TranscriptContent {
  const words = (texts: string, t0: number) => texts.split(' ').map((text, i) => ({ text, start_ms: t0 + i * 400, end_ms: t0 + i * 400 + 300, confidence: 0.9 }));
  return {
    kind: 'transcript',
    version: 1,
    speakers: [{ id: 'a', name: 'Ann' }, { id: 'b', name: 'Bob' }],
    segments: [
      { id: 's1', speaker_id: 'a', start_ms: 0, end_ms: 1500, words: words('Hello there my friend', 0) },
      { id: 's2', speaker_id: 'b', start_ms: 2000, end_ms: 3100, words: words('Cats and dogs.', 2000) },
    ],
  };
}
const caption = (): CaptionContent => ({
  kind: 'caption',
  version: 1,
  speakers: [{ id: 'a', name: 'Ann' }],
  cues: [
    { id: 'c1', start_ms: 1000, end_ms: 3000, lines: ['one two', 'three four'], speaker_id: 'a' },
    { id: 'c2', start_ms: 3500, end_ms: 4000, lines: ['five'] },
  ],
});

describe('split and merge', () => {
  it('splits a segment at a word and merges it back to the original', () => {
    const t = transcript();
    const split = splitSegment(t, 's1', 2);
    expect(split.segments.map((s) => s.words.map((w) => w.text).join(' '))).toEqual(['Hello there', 'my friend', 'Cats and dogs.']);
    expect(split.segments[1].id).not.toBe('s1');
    expect(split.segments[1].speaker_id).toBe('a');
    expect(split.segments[0].end_ms).toBe(700);
    expect(split.segments[1].start_ms).toBe(800);
    const merged = mergeSegments(split, 's1', split.segments[1].id);
    expect(merged.segments[0].words).toEqual(t.segments[0].words);
    expect(merged.segments[0].start_ms).toBe(0);
    expect(merged.segments[0].end_ms).toBe(1500);
    expect(t.segments).toHaveLength(2); // inputs are never mutated
  });

  it('refuses to split at the edges or merge non-adjacent segments', () => {
    expect(() => splitSegment(transcript(), 's1', 0)).toThrow(EditError);
    expect(() => splitSegment(transcript(), 's1', 4)).toThrow(EditError);
    expect(() => splitSegment(transcript(), 'nope', 1)).toThrow(/no segment/);
    expect(() => mergeSegments(transcript(), 's2', 's1')).toThrow(/not adjacent/);
  });

  it('splits a cue at a word boundary with time shared by text, and merges cues', () => {
    const c = splitCue(caption(), 'c1', 9); // inside "three": moves back to its start
    expect(c.cues.map((x) => x.lines)).toEqual([['one two'], ['three four'], ['five']]);
    expect(c.cues[0].end_ms).toBe(c.cues[1].start_ms);
    expect(c.cues[0].end_ms).toBeGreaterThan(1000);
    expect(c.cues[1].end_ms).toBe(3000);
    const m = mergeCues(c, 'c1', c.cues[1].id);
    expect(m.cues[0]).toMatchObject({ start_ms: 1000, end_ms: 3000, lines: ['one two', 'three four'] });
  });
});

describe('speakers', () => {
  it('renames everywhere, merges, assigns and adds', () => {
    const t = renameSpeaker(transcript(), 'a', 'Anna');
    expect(t.speakers[0].name).toBe('Anna');
    const m = mergeSpeakers(t, 'a', 'b');
    expect(m.speakers.map((s) => s.id)).toEqual(['a']);
    expect(m.segments.map((s) => s.speaker_id)).toEqual(['a', 'a']);
    const { content, id } = addSpeaker(m, 'Cleo');
    const assigned = assignSpeaker(content, 's2', id);
    expect(assigned.segments[1].speaker_id).toBe(id);
    expect(assignSpeaker(assigned, 's2', null).segments[1].speaker_id).toBeNull();
    expect(() => assignSpeaker(assigned, 's2', 'ghost')).toThrow(EditError);
    expect(() => renameSpeaker(assigned, 'ghost', 'x')).toThrow(EditError);
    expect(mergeSpeakers(caption(), 'a', 'a').cues[0].speaker_id).toBe('a');
  });
});

describe('timing and timecodes', () => {
  it('shifts all timings or a range, never below zero', () => {
    const all = shiftTimings(transcript(), 1000);
    expect(all.segments[0].words[0].start_ms).toBe(1000);
    const range = shiftTimings(transcript(), -500, { from_ms: 2000 });
    expect(range.segments[0].start_ms).toBe(0);
    expect(range.segments[1].start_ms).toBe(1500);
    expect(range.segments[1].words[0].start_ms).toBe(1500);
    const clamped = shiftTimings(caption(), -2000);
    expect(clamped.cues[0].start_ms).toBe(0);
    expect(clamped.cues[0].end_ms).toBe(1000);
    expect(() => shiftTimings(caption(), 0.5)).toThrow(EditError);
  });

  it('converts SMPTE timecodes at 25, 30 and drop-frame 29.97', () => {
    expect(timecodeToMs('01:00:00:00', 25)).toBe(3_600_000);
    expect(timecodeToMs('00:00:01:12', 25)).toBe(1480);
    expect(msToTimecode(3_723_480, 25)).toBe('01:02:03:12');
    expect(timecodeToMs('00:01:00;02', 30000 / 1001)).toBe(60_060); // first frame after the drop
    expect(timecodeToMs('00:10:00;00', 30000 / 1001)).toBe(599_999); // 17,982 frames: 0.6 ms short of 10 min
    for (const f of [0, 1, 1799, 1800, 17_981, 17_982, 107_891, 107_892, 2_589_407]) {
      const [h, m, sec, fr] = dropFrameLabel(f, 30000 / 1001);
      const label = [h, m, sec].map((v) => String(v).padStart(2, '0')).join(':') + ';' + String(fr).padStart(2, '0');
      expect(timecodeToFrames(label, 30000 / 1001), label).toBe(f);
      expect(dropFrameCount(h, m, sec, fr, 30000 / 1001)).toBe(f);
    }
    expect(dropFrameLabel(1800, 30000 / 1001)).toEqual([0, 1, 0, 2]); // frames 00 and 01 are skipped
    expect(() => timecodeToMs('00:00:00:25', 25)).toThrow(/frame 25/);
    expect(() => timecodeToMs('00:00:00;00', 25)).toThrow(/drop-frame/);
  });

  it('sets the timecode offset and frame rate of a document together', () => {
    const doc: TimecodeCarrier = { timecode_offset: '00:00:00:00', document: { document_type: 'transcript', metadata: {}, content: transcript() } };
    const next = setTimecode(doc, '10:00:00:29', 30);
    expect(next.timecode_offset).toBe('10:00:00:29');
    expect(next.document?.metadata.frame_rate).toBe(30);
    expect(() => setTimecode(doc, '10:00:00:29', 25)).toThrow(EditError);
    expect(() => setTimecode(doc, '1:00:00:00')).toThrow(EditError);
  });
});

describe('find and replace', () => {
  it('finds with case and whole-word options and reports places', () => {
    const t = transcript();
    expect(findText(t, 'the')).toEqual([{ item_id: 's1', item: 0, line: 0, offset: 6, length: 3, text: 'the' }]);
    expect(findText(t, 'the', { wholeWord: true })).toEqual([]);
    expect(findText(t, 'cats', { caseSensitive: true })).toEqual([]);
    expect(findText(t, 'cats')).toHaveLength(1);
    expect(findText(caption(), 'f')).toEqual([
      { item_id: 'c1', item: 0, line: 1, offset: 6, length: 1, text: 'f' },
      { item_id: 'c2', item: 1, line: 0, offset: 0, length: 1, text: 'f' },
    ]);
  });

  it('property: finds what its regular expression finds, ASCII or not, with either option', () => {
    // Letters where case folding and toLowerCase part ways (İ, ſ, the Kelvin sign, ß), digits, an underscore and spaces.
    const char = fc.constantFrom('a', 'A', 'b', 'B', 's', 'S', 'k', 'K', 'i', 'I', '1', '_', ' ', ' ', 'é', 'É', 'İ', 'ſ', 'K', 'ß');
    const text = fc.array(char, { maxLength: 40 }).map((c) => c.join(''));
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), fc.array(char, { minLength: 1, maxLength: 3 }).map((c) => c.join('')), fc.boolean(), fc.boolean(), (lines, query, caseSensitive, wholeWord) => {
        const content: CaptionContent = { kind: 'caption', version: 1, speakers: [], cues: [{ id: 'c1', start_ms: 0, end_ms: 1000, lines }] };
        const re = findPattern(query, { caseSensitive, wholeWord });
        const expected = lines.flatMap((line, i) => [...line.matchAll(re)].map((m) => ({ item_id: 'c1', item: 0, line: i, offset: m.index, length: m[0].length, text: m[0] })));
        expect(findText(content, query, { caseSensitive, wholeWord })).toEqual(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('replaces in a transcript keeping the timings of untouched words', () => {
    const { content, matches } = replaceText(transcript(), 'dogs', 'wolves $1', { wholeWord: true });
    expect(matches).toHaveLength(1);
    const words = content.segments[1].words;
    expect(words.map((w) => w.text)).toEqual(['Cats', 'and', 'wolves', '$1.']);
    expect(words[0]).toEqual(transcript().segments[1].words[0]);
    expect(words[2].start_ms).toBe(2800);
    expect(words[3].end_ms).toBe(3100);
  });

  it('replaces in caption lines', () => {
    const { content } = replaceText(caption(), 'FIVE', '5');
    expect(content.cues[1].lines).toEqual(['5']);
  });
});
