/** Known speech for tests: espeak-ng speaks a given text to a WAV (the voice pocketsphinx hears best). */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const VOICE = 'en-us+klatt3';

/**
 * Returns the path of a 16-bit WAV of `text`, cached by content in the temp dir. Written under a
 * private name and renamed into place, so test files running at once never read a half-written WAV.
 */
export async function speechWav(text: string, opts: { voice?: string; wordsPerMinute?: number } = {}): Promise<string> {
  const voice = opts.voice ?? VOICE;
  const wpm = opts.wordsPerMinute ?? 150;
  const dir = join(tmpdir(), 's2t-speech');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${createHash('sha1').update(`${voice}|${wpm}|${text}`).digest('hex')}.wav`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}.partial`;
    execFileSync('espeak-ng', ['-v', voice, '-s', String(wpm), '-w', partial, text]);
    renameSync(partial, file);
  }
  return file;
}

/** The words of a text as WER counts them: lowercased, punctuation dropped. */
export function words(text: string): string[] {
  return text.toLowerCase().replace(/[^a-z0-9' ]+/g, ' ').split(/\s+/).filter(Boolean);
}

/** Word error rate of a hypothesis against the reference (Levenshtein over lowercased words). */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const r = words(reference);
  const h = words(hypothesis);
  const d = Array.from({ length: r.length + 1 }, (_, i) => [i, ...Array(h.length).fill(0)] as number[]);
  for (let j = 0; j <= h.length; j++) d[0][j] = j;
  for (let i = 1; i <= r.length; i++)
    for (let j = 1; j <= h.length; j++) d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (r[i - 1] === h[j - 1] ? 0 : 1));
  return r.length ? d[r.length][h.length] / r.length : h.length ? 1 : 0;
}
