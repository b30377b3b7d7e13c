/**
 * The speaker step's clustering on meetings longer than speakers.e2e's six turns, straight on
 * the audio (MFCCs and levels as a job computes them): a long meeting must not be split into more
 * speakers than spoke, nor two alike voices (en-us+m3, en-gb+m1) joined, and one voice speaking
 * fourteen different sentences is one speaker. Each meeting's truth is where sox placed each line.
 */
import { describe, expect, it } from 'vitest';
import { diarize } from '../../../service/media/diarize';
import { mfcc } from '../../../service/media/mfcc';
import { frameLevels, readWavHeader, silenceThreshold } from '../../../service/media/speech-regions';
import { diarizationErrorRate, MEETING_LINES, meetingSpeech } from '../../helpers/speech';

const LINES = [
  'We should also talk about hiring, because the support team is overloaded.',
  'I agree. Two more people would make a real difference by the summer.',
  'Can finance approve that before the end of the quarter?',
  'Probably, if we move some of the travel budget.',
  'Then let us write it down and decide next week.',
  'One more thing: the office will be closed on Friday.',
  'Good to know. I will tell my team this afternoon.',
  'Is there anything else before we finish?',
  ...MEETING_LINES,
];

async function speakersOf(lines: string[], voices: string[]): Promise<{ found: number; der: number }> {
  const audio = await meetingSpeech(lines, voices);
  const wav = await readWavHeader(audio.path);
  const levels = await frameLevels(audio.path, wav);
  const turns = diarize(await mfcc(audio.path, wav), levels, silenceThreshold(levels));
  const ids = [...new Set(voices)];
  return { found: new Set(turns.map((t) => t.speaker)).size, der: diarizationErrorRate(audio, (i) => ids.indexOf(voices[i]), turns) };
}

describe('speaker clustering on longer meetings', () => {
  it('three voices in fourteen turns out of order, two of them alike, are three speakers', async () => {
    const voices = ['m3', 'm3', 'f2', 'gb', 'f2', 'm3', 'gb', 'gb', 'f2', 'm3', 'f2', 'gb', 'm3', 'f2'].map((v) => (v === 'gb' ? 'en-gb+m1' : `en-us+${v}`));
    const { found, der } = await speakersOf(LINES, voices);
    expect(found).toBe(3);
    // Measured 0.000; the bound leaves room for a boundary frame or two on another machine.
    expect(der).toBeLessThanOrEqual(0.05);
  }, 120_000);

  it('four voices in twenty-eight turns are four speakers', async () => {
    const lines = [...LINES.slice(8), ...LINES.slice(0, 8), ...LINES.slice(0, 8), ...LINES.slice(8)];
    const four = ['en-us+m3', 'en-us+f2', 'en-gb+m1', 'en-us+f4'];
    const { found, der } = await speakersOf(lines, lines.map((_, i) => four[i % 4]));
    expect(found).toBe(4);
    // Measured 0.012.
    expect(der).toBeLessThanOrEqual(0.05);
  }, 120_000);

  it('one voice over fourteen different sentences is one speaker', async () => {
    for (const voice of ['en-us+m3', 'en-us+f2']) expect((await speakersOf(LINES, LINES.map(() => voice))).found, voice).toBe(1);
  }, 120_000);
});
