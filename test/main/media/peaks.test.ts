/**
 * Waveform peaks for the caption editor: decoded with the real ffmpeg from a file with speech at
 * a known offset (sox), kept on disk and read back without a second decode, and the service's
 * audiowaveform JSON (made by the local service's own code) turned into the same kind of peaks.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { computePeaks, PEAKS_PER_SECOND, PeakCache, peaksFromAudiowaveform } from '../../../main/media/peaks';
import { computeWaveform } from '../../../service/media/waveform';
import { placedSpeech } from '../../helpers/speech';

const dir = mkdtempSync(join(tmpdir(), 'peaks-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LEAD_MS = 1500;
const spec = { sentences: ['the quick brown fox jumps over the lazy dog'], gapsMs: [LEAD_MS], tailMs: 1200, sampleRate: 16000, container: 'wav' as const };

/** The loudest peak between two times. */
const loudest = (peaks: Uint8Array, fromMs: number, toMs: number) => Math.max(...peaks.subarray(Math.floor(fromMs / 10), Math.ceil(toMs / 10)));

describe('waveform peaks', () => {
  it('are one per 10 ms, low in silence and high where the speech was placed', async () => {
    const speech = await placedSpeech(spec);
    const peaks = await computePeaks(speech.path);
    expect(Math.abs(peaks.length - speech.durationMs / 10)).toBeLessThanOrEqual(1);
    const s = speech.sentences[0];
    expect(loudest(peaks, 0, s.startMs - 20)).toBeLessThanOrEqual(2);
    expect(loudest(peaks, s.endMs + 20, speech.durationMs)).toBeLessThanOrEqual(2);
    expect(loudest(peaks, s.startMs, s.endMs)).toBeGreaterThan(60);
    // Speech starts within a peak or two of where sox put it.
    const first = peaks.findIndex((v) => v > 8);
    expect(Math.abs(first * 10 - s.startMs)).toBeLessThanOrEqual(30);
  });

  it('keep their place past the first block read (82 s at 8 kHz): a tone at 90.0-90.5 s of 100 s', async () => {
    const tone = join(dir, 'tone.wav');
    execFileSync('sox', ['-n', '-r', '16000', '-c', '1', '-b', '16', join(dir, 'burst.wav'), 'synth', '0.5', 'sine', '440', 'vol', '0.5']);
    execFileSync('sox', [join(dir, 'burst.wav'), tone, 'pad', '90', '9.5']);
    const peaks = await computePeaks(tone);
    expect(peaks.length).toBe(10_000);
    const loud = [...peaks.keys()].filter((i) => peaks[i] > 60);
    expect(loud[0]).toBeGreaterThanOrEqual(8999);
    expect(loud[0]).toBeLessThanOrEqual(9001);
    expect(loud.at(-1)).toBeGreaterThanOrEqual(9048);
    expect(loud.at(-1)).toBeLessThanOrEqual(9050);
    expect(loudest(peaks, 0, 89_900)).toBeLessThanOrEqual(2);
  });

  it('read the audio of a video too', async () => {
    const speech = await placedSpeech({ ...spec, container: 'mp4' });
    const peaks = await computePeaks(speech.path);
    const s = speech.sentences[0];
    expect(loudest(peaks, 0, s.startMs - 100)).toBeLessThanOrEqual(3);
    expect(loudest(peaks, s.startMs, s.endMs)).toBeGreaterThan(60);
  });

  it('are kept on disk: the second ask decodes nothing, a changed file is decoded again', async () => {
    const speech = await placedSpeech(spec);
    const copy = join(dir, 'copy.wav');
    execFileSync('cp', [speech.path, copy]);
    let decodes = 0;
    const cache = new PeakCache(join(dir, 'peaks'), (p) => (decodes++, computePeaks(p)));
    expect(await cache.has(copy)).toBe(false);
    const [a, b] = await Promise.all([cache.get(copy), cache.get(copy)]);
    expect(decodes).toBe(1);
    expect(await cache.has(copy)).toBe(true);
    const again = await new PeakCache(join(dir, 'peaks'), () => Promise.reject(new Error('must not decode'))).get(copy);
    expect(Array.from(again)).toEqual(Array.from(a));
    expect(b).toBe(a);
    execFileSync('sox', [speech.path, copy, 'trim', '0', '1']);
    const shorter = await cache.get(copy);
    expect(decodes).toBe(2);
    expect(shorter.length).toBe(100);
  });

  it("from the service are fetched once a session and then read from disk", async () => {
    const cache = new PeakCache(join(dir, 'service-peaks'));
    let fetches = 0;
    const fetchPeaks = async () => (fetches++, Uint8Array.from([0, 10, 200, 30]));
    expect(await cache.keptSession('acct|s1')).toBeNull();
    expect(Array.from(await cache.forSession('acct|s1', fetchPeaks))).toEqual([0, 10, 200, 30]);
    expect(Array.from((await cache.keptSession('acct|s1'))!)).toEqual([0, 10, 200, 30]);
    expect(Array.from(await cache.forSession('acct|s1', fetchPeaks))).toEqual([0, 10, 200, 30]);
    expect(fetches).toBe(1);
    // Another session (or account) is its own.
    expect(await cache.keptSession('acct|s2')).toBeNull();
    await expect(cache.forSession('acct|s2', () => Promise.reject(new Error('the service answered 404')))).rejects.toThrow(/404/);
    expect(await cache.keptSession('acct|s2')).toBeNull();
  });

  it("from the service's audiowaveform JSON match the ones decoded here", async () => {
    const speech = await placedSpeech(spec);
    const wav = join(dir, 'engine.wav');
    execFileSync('sox', [speech.path, '-r', '16000', '-c', '1', '-b', '16', wav]);
    const fromService = peaksFromAudiowaveform(await computeWaveform(wav));
    const here = await computePeaks(speech.path);
    expect(Math.abs(fromService.length - here.length)).toBeLessThanOrEqual(1);
    const s = speech.sentences[0];
    expect(loudest(fromService, 0, s.startMs - 20)).toBeLessThanOrEqual(2);
    expect(loudest(fromService, s.startMs, s.endMs)).toBeGreaterThan(60);
    // Per 10 ms the two agree closely (8 kHz loses only the top of the spectrum).
    let diff = 0;
    for (let i = 0; i < Math.min(here.length, fromService.length); i++) diff += Math.abs(here[i] - fromService[i]);
    expect(diff / here.length).toBeLessThan(12);
    expect(PEAKS_PER_SECOND).toBe(100);
  });

  it('refuse JSON that is not a waveform, and say when ffmpeg cannot read a file', async () => {
    expect(() => peaksFromAudiowaveform({ data: [1, 2] })).toThrow();
    const junk = join(dir, 'junk.wav');
    execFileSync('sh', ['-c', `echo not audio > ${junk}`]);
    await expect(computePeaks(junk)).rejects.toThrow(/ffmpeg could not read the media/);
  });
});
