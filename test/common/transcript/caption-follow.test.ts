/** Captions follow the transcript: rebuilt with the profile, hand edits kept where their words did not change, changes reported. */
import { describe, expect, it } from 'vitest';
import { followTranscript } from '../../../common/transcript/caption-follow';
import { transcriptToCaptions } from '../../../common/transcript/captions';
import type { CaptionContent, Segment, TranscriptContent } from '../../../common/transcript/model';

/** A segment of words 300 ms apart starting at `at`. */
function seg(id: string, at: number, text: string, speaker: string | null = null): Segment {
  const words = text.split(' ').map((w, i) => ({ text: w, start_ms: at + i * 300, end_ms: at + i * 300 + 250, confidence: 0.9 }));
  return { id, speaker_id: speaker, start_ms: at, end_ms: words.at(-1)!.end_ms, words };
}

const transcript = (...segments: Segment[]): TranscriptContent => ({
  kind: 'transcript',
  version: 1,
  speakers: [
    { id: 'a', name: 'Ann' },
    { id: 'b', name: 'Bob' },
  ],
  segments,
});

const BEFORE = transcript(
  seg('s1', 0, 'Good morning and welcome to the budget meeting.', 'a'),
  seg('s2', 5000, 'The library needs a new roof before the winter.', 'a'),
  seg('s3', 10_000, 'We will vote on the roof next week.', 'b'),
);

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
const cueText = (c: CaptionContent, i: number) => c.cues[i].lines.join(' ');

describe('followTranscript', () => {
  it('changes nothing when the transcript did not change', () => {
    const captions = transcriptToCaptions(BEFORE);
    const r = followTranscript({ before: BEFORE, after: clone(BEFORE), captions });
    expect(r.content).toEqual(captions);
    expect(r).toMatchObject({ changed: [], removed: [], keptEdits: [] });
  });

  it('a corrected word reaches its cue; a hand edit elsewhere is kept; only the corrected cue is reported', () => {
    const captions = clone(transcriptToCaptions(BEFORE));
    expect(captions.cues).toHaveLength(3);
    captions.cues[0].lines = ['Good morning,', 'and welcome to the budget meeting.']; // a hand edit
    const after = clone(BEFORE);
    after.segments[1].words[4].text = 'brand-new'; // a correction: 'new' -> 'brand-new'
    const r = followTranscript({ before: BEFORE, after, captions });
    expect(r.content.cues[0]).toEqual(captions.cues[0]);
    expect(r.keptEdits).toEqual([captions.cues[0].id]);
    expect(cueText(r.content, 1)).toBe('The library needs a brand-new roof before the winter.');
    expect(r.changed).toEqual([r.content.cues[1].id]);
    expect(r.removed).toEqual([captions.cues[1].id]);
    expect(r.content.cues[2]).toEqual(captions.cues[2]);
  });

  it('a hand edit over words that changed gives way to the new words, and says so', () => {
    const captions = clone(transcriptToCaptions(BEFORE));
    captions.cues[2].lines = ['We vote on the roof next week.'];
    const after = clone(BEFORE);
    after.segments[2].words[5].text = 'tomorrow.';
    after.segments[2].words.splice(6, 2);
    const r = followTranscript({ before: BEFORE, after, captions });
    expect(cueText(r.content, 2)).toBe('We will vote on the tomorrow.');
    expect(r.changed).toEqual([r.content.cues[2].id]);
    expect(r.keptEdits).toEqual([]);
  });

  it('a speaker change and a timing change reach the cues', () => {
    const captions = transcriptToCaptions(BEFORE);
    const after = clone(BEFORE);
    after.segments[0].speaker_id = 'b';
    for (const w of after.segments[2].words) {
      w.start_ms += 2000;
      w.end_ms += 2000;
    }
    after.segments[2].start_ms += 2000;
    after.segments[2].end_ms += 2000;
    const r = followTranscript({ before: BEFORE, after, captions });
    expect(r.content.cues[0].speaker_id).toBe('b');
    expect(r.content.cues[2].start_ms).toBe(12_000);
    expect(r.changed).toEqual([r.content.cues[0].id, r.content.cues[2].id]);
    expect(r.content.cues[1]).toEqual(captions.cues[1]);
    expect(new Set(r.content.cues.map((c) => c.id)).size).toBe(3);
  });

  it('follows the chosen profile: short-form cuts one short line a cue', () => {
    const captions = transcriptToCaptions(BEFORE, 'short-form');
    const after = clone(BEFORE);
    after.segments[0].words[1].text = 'evening';
    const r = followTranscript({ before: BEFORE, after, captions, profile: 'short-form' });
    expect(r.content.cues.every((c) => c.lines.length === 1 && c.lines[0].length <= 32)).toBe(true);
    expect(r.content.cues.map((c) => c.lines.join(' ')).join(' ')).toContain('Good evening');
    expect(r.changed).toHaveLength(1);
  });

  it('pairs each cue by time when the document lists its cues out of order and a hand-retimed cue runs long', () => {
    const built = clone(transcriptToCaptions(BEFORE));
    built.cues[0].lines = ['Good morning,', 'and welcome to the budget meeting.']; // a hand edit
    built.cues[0].end_ms = 9000; // held on screen well into the next cue's time
    const captions: CaptionContent = { ...built, cues: [built.cues[2], built.cues[0], built.cues[1]] };
    const after = clone(BEFORE);
    after.segments[2].words[1].text = 'shall';
    const r = followTranscript({ before: BEFORE, after, captions });
    expect(r.content.cues[0]).toEqual(built.cues[0]);
    expect(r.keptEdits).toEqual([built.cues[0].id]);
    expect(r.content.cues[1]).toEqual(built.cues[1]);
    expect(cueText(r.content, 2)).toBe('We shall vote on the roof next week.');
    expect(r.removed).toEqual([built.cues[2].id]);
  });
});
