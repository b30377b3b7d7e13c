/**
 * Speech recognition with CMU PocketSphinx (Debian packages pocketsphinx, pocketsphinx-en-us):
 * `pocketsphinx_continuous -infile X.wav -time yes` prints one line per word with start, end and
 * posterior probability, which becomes the word's confidence.
 */
import type { Segment, TranscriptContent, Word } from '../../common/transcript/model';
import { CONTENT_VERSION } from '../../common/transcript/model';
import { runTool, ToolError } from '../media/run-tool';
import { diarizationNote, PermanentEngineError, type Engine, type EngineInput } from './engine';
import { PUNCTUATION_NOTE, sentencePerSegment } from './punctuate';

/** Language keys the installed acoustic model serves. */
export function decodeSupports(language: string): boolean {
  return /^en([-_](us|gb|au|ca))?$/i.test(language) || language.toLowerCase() === 'english';
}

export interface RecognizedWord extends Word {
  /** The word starts a new utterance (after <s>). */
  utteranceStart: boolean;
}

const LINE = /^(\S+) (\d+\.\d+) (\d+\.\d+) (\d+(?:\.\d+)?)$/;

/** Parses pocketsphinx's -time yes output: drops <s>, </s>, <sil>, fillers ([NOISE]), and "word(2)" variants' suffix. */
export function parsePocketsphinx(stdout: string): RecognizedWord[] {
  const words: RecognizedWord[] = [];
  let newUtterance = true;
  for (const line of stdout.split('\n')) {
    const m = LINE.exec(line.trim());
    if (!m) continue;
    const token = m[1];
    if (token === '<s>') {
      newUtterance = true;
      continue;
    }
    if (token === '</s>' || token === '<sil>' || /^[[<+].*[\]>+]$/.test(token)) continue;
    const text = token.replace(/\(\d+\)$/, '');
    const start = Math.round(Number(m[2]) * 1000);
    const end = Math.max(start, Math.round(Number(m[3]) * 1000));
    const confidence = Math.min(1, Math.max(0, Number(m[4])));
    words.push({ text, start_ms: start, end_ms: end, confidence, utteranceStart: newUtterance });
    newUtterance = false;
  }
  return words;
}

/** Cuts words into segments at utterance boundaries and pauses, at most 30 words each. */
export function segmentWords(words: RecognizedWord[] | Word[], pauseMs = 600, maxWords = 30): Segment[] {
  const segments: Segment[] = [];
  let current: Word[] = [];
  const flush = () => {
    if (current.length === 0) return;
    segments.push({ id: `s${segments.length + 1}`, speaker_id: null, start_ms: current[0].start_ms, end_ms: current.at(-1)!.end_ms, words: current });
    current = [];
  };
  for (const w of words) {
    const prev = current.at(-1);
    const boundary = (w as RecognizedWord).utteranceStart || (prev && w.start_ms - prev.end_ms > pauseMs) || current.length >= maxWords;
    if (boundary) flush();
    current.push({ text: w.text, start_ms: w.start_ms, end_ms: w.end_ms, confidence: w.confidence });
  }
  flush();
  return segments;
}

export async function recognize(wavPath: string, language: string, signal: AbortSignal): Promise<RecognizedWord[]> {
  if (!decodeSupports(language)) {
    throw new PermanentEngineError(`The local speech engine has no model for language "${language}"; only English (en) is installed (Debian package pocketsphinx-en-us).`);
  }
  try {
    const { stdout } = await runTool('pocketsphinx_continuous', ['-infile', wavPath, '-time', 'yes', '-logfn', '/dev/null'], { signal });
    return parsePocketsphinx(stdout);
  } catch (e) {
    if (e instanceof ToolError && e.code === null && /not installed/.test(e.message)) {
      throw new PermanentEngineError('Speech recognition is not available: install the Debian packages pocketsphinx and pocketsphinx-en-us.');
    }
    if (e instanceof ToolError) throw new Error(`The speech engine stopped unexpectedly (${e.message}).`);
    throw e;
  }
}

export const decodeEngine: Engine = {
  name: 'decode',
  async run(input: EngineInput) {
    if (!input.wavPath) throw new PermanentEngineError('This session has no media to transcribe.');
    input.onProgress(20);
    const words = await recognize(input.wavPath, input.language, input.signal);
    input.onProgress(90);
    const segments = segmentWords(words);
    const transcript: TranscriptContent = { kind: 'transcript', version: CONTENT_VERSION, speakers: [], segments: input.punctuation ? sentencePerSegment(segments) : segments };
    return {
      transcript,
      metadata: { engine: 'pocketsphinx', diarization: diarizationNote(input.diarization), punctuation: { requested: input.punctuation, ...(input.punctuation ? { note: PUNCTUATION_NOTE } : {}) } },
    };
  },
};
