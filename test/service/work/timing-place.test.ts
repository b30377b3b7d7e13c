/**
 * The per-chunk check of the decoder's clock: words whose times fit their chunk get the chunk's
 * offset and nothing else; words whose times slipped out of the chunk (the 57 s file came
 * back at 0:52–1:48) are mapped onto the span where the speech map heard speech, in order. And a
 * cut the speech map had to make in speech is decoded across from both sides, each word kept once.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePocketsphinx, placeChunkWords, recognize } from '../../../service/engines/decode';
import { DecoderPool } from '../../../service/engines/decoder-pool';
import { cleanup, tempDir } from '../../helpers/service';
import { firstWords, fixture, noPauseSpec } from './timing-fixtures';

/** pocketsphinx -time yes lines for words at the given [start, end] seconds. */
const decoderOutput = (words: [string, number, number][]) => ['<s> 0.000 0.100 0.999', ...words.map(([w, a, b]) => `${w} ${a.toFixed(3)} ${b.toFixed(3)} 0.500000`), '</s> 9.000 9.100 1.000000'].join('\n');

describe('placing a chunk\'s words on the recording\'s time line', () => {
  const chunk = { startMs: 120_000, endMs: 177_000, speech: { startMs: 121_000, endMs: 176_000 } };

  it('times inside the chunk only get its offset', () => {
    const words = parsePocketsphinx(decoderOutput([['good', 1.01, 1.3], ['morning', 1.31, 1.8], ['thanks', 50.2, 50.6]]));
    const { words: placed, repaired } = placeChunkWords(words, chunk);
    expect(repaired).toBe(false);
    expect(placed.map((w) => [w.text, w.start_ms, w.end_ms])).toEqual([
      ['good', 121_010, 121_300],
      ['morning', 121_310, 121_800],
      ['thanks', 170_200, 170_600],
    ]);
  });

  it('times that run past the chunk are mapped onto its speech, in order, lengths in proportion', () => {
    const words = parsePocketsphinx(decoderOutput([['good', 52.0, 52.5], ['morning', 52.5, 53.5], ['thanks', 107.0, 108.0]]));
    const { words: placed, repaired } = placeChunkWords(words, chunk);
    expect(repaired).toBe(true);
    expect(placed[0].start_ms).toBe(chunk.speech.startMs);
    expect(placed.at(-1)!.end_ms).toBe(chunk.speech.endMs);
    for (const [i, w] of placed.entries()) {
      expect(w.start_ms).toBeGreaterThanOrEqual(chunk.startMs);
      expect(w.end_ms).toBeLessThanOrEqual(chunk.endMs);
      if (i > 0) expect(w.start_ms).toBeGreaterThanOrEqual(placed[i - 1].end_ms);
    }
    // 'morning' was twice as long as 'good' in the decoder's times, and stays so.
    expect((placed[1].end_ms - placed[1].start_ms) / (placed[0].end_ms - placed[0].start_ms)).toBeCloseTo(2, 1);
  });
});

describe('a cut made in speech', () => {
  it('is decoded across from both sides, progress moving chunk by chunk, and each word kept once: no word doubled, none overlapping, sentences where they were placed', async () => {
    const placed = await fixture(noPauseSpec(16000, 'wav'));
    const dir = tempDir('s2t-timing-cut-');
    try {
      const wav = join(dir, 'audio.wav');
      execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', placed.path, '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', wav]);
      const decoders = new DecoderPool(2);
      const signal = new AbortController().signal;
      // Chunks of at most 8 s on ~13 s of speech whose only pause is a comma: one cut must fall in speech.
      const progress: number[] = [];
      const cut = await recognize(wav, 'en', { signal, decoders, chunkMs: { target: 6000, max: 8000 }, onProgress: (p) => progress.push(p) });
      const whole = await recognize(wav, 'en', { signal, decoders, chunkMs: { target: 60_000, max: 120_000 } });
      expect(cut.cutsInSpeech).toBeGreaterThanOrEqual(1);
      expect(whole.chunks).toBe(1);
      // Progress moves once per chunk decoded, upwards, to the whole.
      expect(progress).toHaveLength(cut.chunks);
      progress.slice(1).forEach((p, i) => expect(p).toBeGreaterThan(progress[i]));
      expect(progress.at(-1)).toBeCloseTo(100, 6);
      cut.words.slice(1).forEach((w, i) => expect(w.start_ms, `"${w.text}" after "${cut.words[i].text}"`).toBeGreaterThanOrEqual(cut.words[i].end_ms));
      const checks = firstWords(placed, cut.words);
      console.log(`cut in speech: ${cut.chunks} chunks, ${cut.words.length} words (one chunk: ${whole.words.length}); sentence starts ${checks.map((c) => Math.round(c.errorMs)).join(' ')} ms`);
      for (const c of checks) expect(Math.abs(c.errorMs)).toBeLessThanOrEqual(300);
      // Nothing doubled: both sides decode the 2 s around a cut, so a word kept twice would overlap
      // its twin, which the order check above refuses. Nothing lost: the cut decode leaves no
      // stretch of speech without words that the one-chunk decode fills. (The words themselves
      // differ near a cut, as pocketsphinx's context differs; their count is no measure.)
      const longestGap = (ws: { start_ms: number; end_ms: number }[]) => Math.max(...ws.slice(1).map((w, i) => w.start_ms - ws[i].end_ms));
      expect(longestGap(cut.words)).toBeLessThanOrEqual(longestGap(whole.words) + 300);
      expect(cut.words[0].start_ms).toBeLessThanOrEqual(whole.words[0].start_ms + 300);
      expect(cut.words.at(-1)!.end_ms).toBeGreaterThanOrEqual(whole.words.at(-1)!.end_ms - 300);
    } finally {
      cleanup(dir);
    }
  }, 120_000);
});
