/**
 * What pocketsphinx may recognise, per job: its English dictionary and language model, with the
 * offensive words left out (unless the session allows them: ./profanity) and a glossary's terms
 * added. A term the dictionary lacks gets a pronunciation from espeak-ng's own letter-to-sound
 * rules (`espeak-ng -x`, its phonemes mapped to the dictionary's ARPAbet), and every added word
 * joins the language model as a unigram through libsphinxbase's ngram_model_add_word (reached from
 * python3's ctypes: the Debian package ships the library but no tool that adds words). Files are
 * cached by what went into them, so a glossary used again costs nothing.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runTool } from '../media/run-tool';
import { excludedFromDecoder } from './profanity';

export const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
const DICT = join(MODEL_DIR, 'cmudict-en-us.dict');
const LM = join(MODEL_DIR, 'en-us.lm.bin');

/** Limits on a glossary's effect: terms taken, letters per word. */
export const MAX_TERMS = 1000;
const MAX_WORD_CHARS = 40;
/** An added word's weight against the model's average unigram (above 1 favours the glossary's terms). */
const TERM_WEIGHT = 2;

export interface LexiconSpec {
  allowProfanity: boolean;
  /** Glossary terms as written (multi-word terms are added word by word). */
  terms: string[];
}

export interface Lexicon {
  /** pocketsphinx arguments (-dict, and -lm when words were added). */
  args: string[];
  /** Added words (lower case) and how the glossary writes them, to give them back their spelling. */
  spelling: Map<string, string>;
  /** Words the dictionary lacked that got a spoken form from espeak-ng. */
  guessed: string[];
  excluded: number;
}

/** espeak-ng phonemes (en-us) to ARPAbet, longest first. Stress and syllable marks are dropped. */
const PHONES: [string, string][] = [
  ['aI@', 'AY ER'], ['aU@', 'AW ER'], ['i@3', 'IH R'], ['e@', 'EH R'], ['A@', 'AA R'], ['O@', 'AO R'], ['o@', 'AO R'], ['U@', 'UH R'], ['i@', 'IH R'],
  ['3:', 'ER'], ['@L', 'AH L'], ['@2', 'AH'], ['@5', 'AH'], ['a#', 'AH'], ['I#', 'IH'], ['I2', 'IH'], ['A:', 'AA'], ['O:', 'AO'], ['i:', 'IY'], ['u:', 'UW'],
  ['aI', 'AY'], ['aU', 'AW'], ['eI', 'EY'], ['oU', 'OW'], ['OI', 'OY'], ['aa', 'AE'], ['tS', 'CH'], ['dZ', 'JH'], ['t#', 'T'],
  ['3', 'ER'], ['@', 'AH'], ['a', 'AE'], ['e', 'EH'], ['E', 'EH'], ['i', 'IY'], ['I', 'IH'], ['0', 'AA'], ['O', 'AO'], ['U', 'UH'], ['V', 'AH'], ['u', 'UW'], ['o', 'OW'], ['A', 'AA'],
  ['p', 'P'], ['b', 'B'], ['t', 'T'], ['d', 'D'], ['k', 'K'], ['g', 'G'], ['f', 'F'], ['v', 'V'], ['s', 'S'], ['z', 'Z'], ['h', 'HH'], ['m', 'M'], ['n', 'N'], ['l', 'L'], ['r', 'R'], ['w', 'W'], ['j', 'Y'],
  ['T', 'TH'], ['D', 'DH'], ['S', 'SH'], ['Z', 'ZH'], ['N', 'NG'], ['x', 'K'],
];

/** ARPAbet of espeak-ng's phoneme string for one word. */
export function espeakToArpabet(phonemes: string): string {
  const out: string[] = [];
  let i = 0;
  while (i < phonemes.length) {
    const hit = PHONES.find(([from]) => phonemes.startsWith(from, i));
    if (hit) {
      out.push(hit[1]);
      i += hit[0].length;
    } else i++; // stress ' , syllable and length marks
  }
  return out.join(' ');
}

/** The decoder's words of a glossary term: letters and apostrophes, lower case. */
export function termWords(term: string): string[] {
  return term
    .toLowerCase()
    .split(/[\s\-_/]+/)
    .map((w) => w.replace(/[^a-z']/g, ''))
    .filter((w) => w.length > 0 && w.length <= MAX_WORD_CHARS);
}

let dictText: Promise<string> | null = null;
const baseDict = () => (dictText ??= readFile(DICT, 'utf8'));

const ADD_WORDS_PY = `
import ctypes, sys
sb = ctypes.CDLL('libsphinxbase.so.3')
sb.logmath_init.restype = ctypes.c_void_p
sb.logmath_init.argtypes = [ctypes.c_double, ctypes.c_int, ctypes.c_int]
sb.ngram_model_read.restype = ctypes.c_void_p
sb.ngram_model_read.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p]
sb.ngram_model_add_word.restype = ctypes.c_int32
sb.ngram_model_add_word.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_float]
sb.ngram_model_write.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
lm = sb.ngram_model_read(None, sys.argv[1].encode(), 0, sb.logmath_init(1.0001, 0, 0))
if not lm: sys.exit('the language model could not be read')
sb.ngram_wid.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
sb.ngram_unknown_wid.argtypes = [ctypes.c_void_p]
unknown = sb.ngram_unknown_wid(lm)
# A word the model has already is left as it is (adding it again crashes libsphinxbase 5prealpha).
for w in sys.stdin.read().split():
    if sb.ngram_wid(lm, w.encode()) != unknown: continue
    if sb.ngram_model_add_word(lm, w.encode(), float(sys.argv[3])) < 0: sys.exit('could not add ' + w)
if sb.ngram_model_write(lm, sys.argv[2].encode(), 2) != 0: sys.exit('the language model could not be written')
`;

async function writeAtomically(path: string, write: (tmp: string) => Promise<void>): Promise<void> {
  const tmp = `${path}.${process.pid}.${Date.now()}.partial`;
  await write(tmp);
  await rename(tmp, path);
}

/**
 * Lexicons this process built, by their inputs: most jobs ask for the same one (no glossary,
 * offensive words left out), and building it reads and filters the 134 000-word dictionary.
 */
const built = new Map<string, Lexicon>();
const MAX_REMEMBERED = 16;

/**
 * The lexicon for a job, or null when pocketsphinx's own files serve (offensive words allowed and
 * no glossary). `cacheDir` holds the built files, named by a hash of their inputs.
 */
export async function buildLexicon(cacheDir: string, spec: LexiconSpec, signal: AbortSignal): Promise<Lexicon | null> {
  const inputs = JSON.stringify([cacheDir, spec.allowProfanity, spec.terms.slice(0, MAX_TERMS)]);
  const remembered = built.get(inputs);
  // Its files can go (a cleared cache folder): then it is built again.
  if (remembered && filesOf(remembered).every((f) => existsSync(f))) return remembered;
  const lexicon = await buildLexiconFiles(cacheDir, spec, signal);
  if (lexicon) {
    if (built.size >= MAX_REMEMBERED) built.delete(built.keys().next().value!);
    built.set(inputs, lexicon);
  }
  return lexicon;
}

/** The files a lexicon's arguments name (each flag is followed by its file). */
const filesOf = (lexicon: Lexicon): string[] => lexicon.args.filter((_, i) => i % 2 === 1);

async function buildLexiconFiles(cacheDir: string, spec: LexiconSpec, signal: AbortSignal): Promise<Lexicon | null> {
  const spelling = new Map<string, string>();
  for (const term of spec.terms.slice(0, MAX_TERMS)) {
    const written = term.split(/[\s\-_/]+/).filter(Boolean);
    termWords(term).forEach((w, i) => spelling.set(w, written[i] ?? w));
  }
  if (spec.allowProfanity && spelling.size === 0) return null;
  const dict = await baseDict();
  const known = new Set<string>();
  const exclude = spec.allowProfanity ? () => false : excludedFromDecoder('en');
  let excluded = 0;
  const kept: string[] = [];
  for (const line of dict.split('\n')) {
    if (!line) continue;
    const word = line.slice(0, line.indexOf(' '));
    const base = word.replace(/\(\d+\)$/, '');
    known.add(base);
    // A glossary's own word stays, even one on the list: the person asked for it.
    if (exclude(base) && !spelling.has(base)) {
      excluded++;
      continue;
    }
    kept.push(line);
  }
  const added = [...spelling.keys()];
  const guessed = added.filter((w) => !known.has(w));
  const spoken: string[] = [];
  for (const w of guessed) {
    const { stdout } = await runTool('espeak-ng', ['-v', 'en-us', '-q', '-x', w], { signal });
    const arpa = espeakToArpabet(stdout.trim());
    if (arpa) spoken.push(`${w} ${arpa}`);
  }
  kept.push(...spoken);
  const key = createHash('sha256').update(JSON.stringify({ v: 1, allow: spec.allowProfanity, added, spoken })).digest('hex').slice(0, 24);
  await mkdir(cacheDir, { recursive: true });
  const dictPath = join(cacheDir, `${key}.dict`);
  if (!existsSync(dictPath)) await writeAtomically(dictPath, (tmp) => writeFile(tmp, kept.join('\n') + '\n'));
  const args = ['-dict', dictPath];
  // Every term word joins the language model (one it already has keeps its probabilities): the
  // dictionary knows 134 000 words, the model only some of them.
  const fresh = added.filter((w) => known.has(w) || spoken.some((l) => l.startsWith(`${w} `)));
  if (fresh.length > 0) {
    const lmPath = join(cacheDir, `${key}.lm.bin`);
    if (!existsSync(lmPath)) await writeAtomically(lmPath, (tmp) => runTool('python3', ['-c', ADD_WORDS_PY, LM, tmp, String(TERM_WEIGHT)], { signal, input: fresh.join('\n') }).then(() => undefined));
    args.push('-lm', lmPath);
  }
  return { args, spelling, guessed, excluded };
}
