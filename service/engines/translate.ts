/**
 * Translation with Apertium where a language pair is installed (Debian: apertium-eng-spa and
 * friends). Each segment or cue is translated as one line, so its time span is kept; the
 * translated words share that span evenly. Without a pair: a 501 that names what to install.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRANSLATION_LANGUAGES, type TranslationTargets } from '../../common/api';
import type { DocumentContent } from '../../common/transcript/model';
import { codedError } from '../http/errors';
import { runTool, ToolError } from '../media/run-tool';

/** ISO 639-1 (upper case, as the translation languages are written) to Apertium's ISO 639-3. */
const ISO3: Record<string, string> = {
  EN: 'eng', ES: 'spa', FR: 'fra', CA: 'cat', PT: 'por', IT: 'ita', DE: 'deu', NL: 'nld', GL: 'glg', RO: 'ron', DA: 'dan',
  SV: 'swe', NB: 'nob', IS: 'isl', EU: 'eus', CY: 'cym', GA: 'gle', MT: 'mlt', PL: 'pol', CS: 'ces', SK: 'slk', SL: 'slv',
  HR: 'hbs', BG: 'bul', RU: 'rus', UK: 'ukr', AR: 'ara', HE: 'heb', HI: 'hin', UR: 'urd', ID: 'ind', MS: 'msa', TR: 'tur',
  FI: 'fin', ET: 'est', LV: 'lav', LT: 'lit', EL: 'ell', SQ: 'sqi', HU: 'hun', FA: 'fas',
};

/** A document's language ('en-US') as a translation language code ('EN'). */
const codeOf = (language: string) => language.slice(0, 2).toUpperCase();

export function apertiumMode(sourceLanguage: string, target: string): string | null {
  const src = ISO3[codeOf(sourceLanguage)];
  const tgt = ISO3[target.toUpperCase()];
  return src && tgt ? `${src}-${tgt}` : null;
}

/** `apertium -l`, asked at most once a minute (a listing of languages would otherwise start a process per language). */
let modes: { at: number; list: Promise<string[]> } | undefined;
const MODES_TTL_MS = 60_000;

export function installedModes(): Promise<string[]> {
  if (!modes || Date.now() - modes.at > MODES_TTL_MS) {
    modes = {
      at: Date.now(),
      list: runTool('apertium', ['-l'], { timeoutMs: 10_000 }).then(
        ({ stdout }) => stdout.split('\n').map((s) => s.trim()).filter(Boolean),
        () => [],
      ),
    };
  }
  return modes.list;
}

/** Each of the spec's translation languages from `sourceLanguage`: available when its Apertium pair is installed, else why not and what to install. */
export async function translationTargets(sourceLanguage: string, installed: string[], where = 'here'): Promise<TranslationTargets> {
  const source = codeOf(sourceLanguage);
  return {
    source_language: sourceLanguage,
    languages: TRANSLATION_LANGUAGES.map((code) => {
      if (code === source) return { code, available: false, reason: 'This is the document\'s own language.' };
      const mode = apertiumMode(sourceLanguage, code);
      if (mode && installed.includes(mode)) return { code, available: true };
      return { code, available: false, reason: `No translation engine for ${source} -> ${code} is installed ${where}.`, install: mode ? `apertium-${mode}` : 'apertium' };
    }),
  };
}

/** The Apertium mode that translates a document's language to `target`; refuses the same language (422) and a pair Apertium has no name for (501). */
export function translationMode(sourceLanguage: string, target: string): string {
  if (codeOf(sourceLanguage) === target.toUpperCase()) {
    throw codedError(422, 'SAME_LANGUAGE', `The document is already in ${target}; choose another target language.`, { source_language: sourceLanguage, target_language: target });
  }
  const mode = apertiumMode(sourceLanguage, target);
  if (!mode) throw notInstalled(mode, sourceLanguage, target);
  return mode;
}

export function notInstalled(mode: string | null, source: string, target: string, where = 'here'): Error {
  const what = mode ? `the Apertium pair ${mode} (Debian: apt-get install apertium apertium-${mode}, or the reverse-named pair)` : `an Apertium pair for ${source}-${target}`;
  return codedError(501, 'TRANSLATION_ENGINE_MISSING', `No translation engine for ${source} -> ${target} is installed ${where}; install ${what}.`, {
    source_language: source,
    target_language: target,
    install: mode ? `apertium-${mode}` : 'apertium',
  });
}

/** Translates lines (one per segment/cue); refuses with 501 when the pair is missing. */
export async function translateLines(lines: string[], sourceLanguage: string, target: string): Promise<string[]> {
  const mode = translationMode(sourceLanguage, target);
  if (!(await installedModes()).includes(mode)) throw notInstalled(mode, sourceLanguage, target);
  // Apertium keeps line breaks; an empty line would merge neighbours, so mark it.
  const input = lines.map((l) => (l.trim() ? l.replace(/\n/g, ' ') : '.')).join('\n') + '\n';
  // Node's stdin pipes are sockets, which the apertium script cannot open as /dev/stdin: use a file.
  const dir = await mkdtemp(join(tmpdir(), 's2t-apertium-'));
  let stdout: string;
  try {
    await writeFile(join(dir, 'in.txt'), input);
    ({ stdout } = await runTool('apertium', ['-u', mode, join(dir, 'in.txt')], { timeoutMs: 120_000 }));
  } catch (e) {
    throw codedError(500, 'TRANSLATION_FAILED', `Apertium failed: ${e instanceof ToolError ? e.stderr.trim().slice(-200) || e.message : String(e)}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const out = stdout.replace(/\n$/, '').split('\n');
  if (out.length !== lines.length) throw codedError(500, 'TRANSLATION_FAILED', 'Apertium changed the number of lines; translation aborted.');
  return out.map((l, i) => (lines[i].trim() ? l.trim() : ''));
}

/** The lines Apertium translates: one per cue, or per segment (its words joined). */
export function translationLines(content: DocumentContent): string[] {
  return content.kind === 'caption' ? content.cues.map((c) => c.lines.join(' ')) : content.segments.map((s) => s.words.map((w) => w.text).join(' '));
}

/** The same content with its lines translated, times kept per segment or cue (the translated words share their segment's span evenly). */
export function withTranslation(content: DocumentContent, out: string[]): DocumentContent {
  if (content.kind === 'caption') return { ...content, cues: content.cues.map((c, i) => ({ ...c, lines: [out[i]] })) };
  return {
    ...content,
    summary: undefined,
    segments: content.segments.map((s, i) => {
      const tokens = out[i].split(/\s+/).filter(Boolean);
      const span = Math.max(0, s.end_ms - s.start_ms);
      return {
        ...s,
        words: tokens.map((text, k) => ({
          text,
          start_ms: s.start_ms + Math.round((span * k) / tokens.length),
          end_ms: s.start_ms + Math.round((span * (k + 1)) / tokens.length),
          confidence: 1,
        })),
      };
    }),
  };
}
