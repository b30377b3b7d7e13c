/**
 * The speaker names our SRT and SBV writers put at a turn come back as speakers when the file is
 * read with speakerPrefixes (as upload mode reads it): a round trip keeps who says what; text with
 * a colon that is no name stays text; without the option nothing changes.
 */
import { describe, expect, it } from 'vitest';
import { parseCaptions, renderExport } from '../../../common/formats';
import { CONTENT_VERSION, type CaptionContent } from '../../../common/transcript/model';

const captions: CaptionContent = {
  kind: 'caption',
  version: CONTENT_VERSION,
  speakers: [{ id: 'a', name: 'Narrator' }, { id: 'b', name: 'Ann van Dijk' }],
  cues: [
    { id: 'c1', start_ms: 0, end_ms: 1000, lines: ['The river'], speaker_id: 'a' },
    { id: 'c2', start_ms: 1000, end_ms: 2000, lines: ['is calm today.'], speaker_id: 'a' },
    { id: 'c3', start_ms: 2000, end_ms: 3000, lines: ['Indeed it is.', 'Note that: calm.'], speaker_id: 'b' },
  ],
};

const said = (c: CaptionContent) => c.cues.map((q) => [c.speakers.find((s) => s.id === q.speaker_id)?.name ?? null, q.lines.join(' / ')]);

describe('speaker prefixes', () => {
  for (const format of ['srt', 'sbv'] as const) {
    it(`${format}: a round trip keeps the speakers`, () => {
      const written = new TextDecoder().decode(renderExport(format, captions) as Uint8Array);
      expect(written).toContain('Narrator: The river');
      expect(said(parseCaptions(format, written, { speakerPrefixes: true }))).toEqual([
        ['Narrator', 'The river'],
        ['Narrator', 'is calm today.'],
        ['Ann van Dijk', 'Indeed it is. / Note that: calm.'],
      ]);
      // Read as plain captions, the names stay in the text.
      expect(said(parseCaptions(format, written))[0]).toEqual([null, 'Narrator: The river']);
    });
  }

  it('a sentence with a colon is no speaker', () => {
    const srt = '1\n00:00:00,000 --> 00:00:01,000\nNote that: this stays.\n\n2\n00:00:01,000 --> 00:00:02,000\nthe time is 10: late\n';
    expect(said(parseCaptions('srt', srt, { speakerPrefixes: true }))).toEqual([
      [null, 'Note that: this stays.'],
      [null, 'the time is 10: late'],
    ]);
  });
});
