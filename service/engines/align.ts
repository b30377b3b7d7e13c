/**
 * Alignment of a given text to the recognised words: the media is recognised, then the words are
 * matched by a bounded sequence alignment on an offload thread (./align-tokens.ts), so a long text
 * never holds the service's event loop. A text cannot have more words than its media can hold
 * (service/documents/limits.ts): such a text is refused before any work is done.
 */
import { CONTENT_VERSION } from '../../common/transcript/model';
import { MAX_WORDS_PER_SECOND, WORDS_ANY_LENGTH } from '../documents/limits';
import { OffloadError } from '../offload/pool';
import { decodeSupports, recognize } from './decode';
import { diarizationNote, PermanentEngineError, type Engine } from './engine';

/** Words in a text (runs of non-space), counted without cutting the text up: a refused text costs one pass. */
export function countWords(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c === 32 || (c >= 9 && c <= 13) || c === 160 || c === 0x2028 || c === 0x2029 || c === 0x3000 || (c >= 0x2000 && c <= 0x200a);
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}

export const alignEngine: Engine = {
  name: 'align',
  supports: decodeSupports,
  async run(input) {
    if (!input.wavPath) throw new PermanentEngineError('Alignment needs media.');
    const text = input.text;
    if (!text?.trim()) throw new PermanentEngineError('Alignment needs a transcript text.');
    const words = countWords(text);
    const most = WORDS_ANY_LENGTH + Math.ceil((input.durationMs / 1000) * MAX_WORDS_PER_SECOND);
    if (words > most) {
      throw new PermanentEngineError(`The transcript text has ${words} words, more than ${Math.round(input.durationMs / 1000)} s of media can hold (at most ${most}); check that the text belongs to this media.`);
    }
    const { words: recognized } = await recognize(input.wavPath, input.language, { signal: input.signal, decoders: input.decoders, mediaMs: input.durationMs, onProgress: (p) => input.onProgress(p * 0.9), recognizer: input.recognizer, lexicon: input.lexicon });
    input.signal.throwIfAborted();
    let aligned;
    try {
      aligned = await input.offload.run('align', { text, recognized: recognized.map(({ text: w, start_ms, end_ms, confidence }) => ({ text: w, start_ms, end_ms, confidence })), durationMs: input.durationMs });
    } catch (e) {
      // Busy is transient (the job is retried); over time or memory is not.
      if (e instanceof OffloadError && (e.reason === 'time' || e.reason === 'memory')) throw new PermanentEngineError(`The transcript text could not be aligned: ${e.message}`);
      throw e;
    }
    return {
      transcript: { kind: 'transcript', version: CONTENT_VERSION, speakers: [], segments: aligned.segments },
      metadata: { engine: `${input.recognizer?.id ?? 'pocketsphinx'}+align`, matched_words: aligned.matched, diarization: diarizationNote(input.diarization) },
    };
  },
};
