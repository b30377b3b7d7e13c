/**
 * The decoder's lexicon for a job: the real dictionary filtered (offensive words left out), a
 * glossary's words added; the files are built once and a process reuses them for the same inputs.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildLexicon } from '../../../service/engines/lexicon';
import { tempDir } from '../../helpers/service';

const dir = tempDir('s2t-lexicon-');
const signal = new AbortController().signal;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const dictOf = (args: string[]) => readFileSync(args[args.indexOf('-dict') + 1], 'utf8');

it('leaves offensive words out, and gives the same lexicon again without rebuilding it', async () => {
  const cache = join(dir, 'plain');
  const first = await buildLexicon(cache, { allowProfanity: false, terms: [] }, signal);
  expect(first!.excluded).toBeGreaterThan(0);
  const dict = dictOf(first!.args);
  expect(dict).toMatch(/^hello /m);
  expect(dict).not.toMatch(/^fuck /m);
  expect(await buildLexicon(cache, { allowProfanity: false, terms: [] }, signal)).toBe(first);
  // Other inputs are another lexicon.
  const glossary = await buildLexicon(cache, { allowProfanity: false, terms: ['Zorblax'] }, signal);
  expect(glossary).not.toBe(first);
  expect(dictOf(glossary!.args)).toMatch(/^zorblax /m);
  expect(glossary!.guessed).toEqual(['zorblax']);
  expect(glossary!.spelling.get('zorblax')).toBe('Zorblax');
});

it('builds its files again when the cache folder was cleared', async () => {
  const cache = join(dir, 'cleared');
  const first = await buildLexicon(cache, { allowProfanity: false, terms: ['Kubernetes'] }, signal);
  rmSync(cache, { recursive: true, force: true });
  const again = await buildLexicon(cache, { allowProfanity: false, terms: ['Kubernetes'] }, signal);
  expect(again).not.toBe(first);
  for (const a of again!.args.filter((_, i) => i % 2 === 1)) expect(existsSync(a)).toBe(true);
  expect(dictOf(again!.args)).toBe(dictOf(first!.args));
});

it('needs no lexicon when offensive words are allowed and there is no glossary', async () => {
  expect(await buildLexicon(join(dir, 'none'), { allowProfanity: true, terms: [] }, signal)).toBeNull();
});
