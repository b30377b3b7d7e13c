/**
 * Alignment of a given text to the recognised words: the media is recognised, then the words are
 * matched by a bounded sequence alignment on an offload thread (./align-tokens.ts), so a long text
 * never holds the service's event loop. A text cannot have more words than its media can hold
 * (service/documents/limits.ts): such a text is refused before any work is done.
 */
import type { Segment } from '../../common/transcript/model';
import { CONTENT_VERSION } from '../../common/transcript/model';
import { MAX_WORDS_PER_SECOND, WORDS_ANY_LENGTH } from '../documents/limits';
import { OffloadError } from '../offload/pool';
import { recognize } from './decode';
import { diarizationNote, PermanentEngineError, type Engine } from './engine';

/** Sentences (or lines) of the given text become segments. */
function splitSegments(text: string): string[][] {
  return text
    .split(/\n+|(?<=[.!?])\s+/)
    .map((s) => s.split(/\s+/).filter(Boolean))
    .filter((s) => s.length > 0);
}

export const alignEngine: Engine = {
  name: 'align',
  async run(input) {
    if (!input.wavPath) throw new PermanentEngineError('Alignment needs media.');
    const text = input.text?.trim();
    if (!text) throw new PermanentEngineError('Alignment needs a transcript text.');
    const sentences = splitSegments(text);
    const tokens = sentences.flat();
    const most = WORDS_ANY_LENGTH + Math.ceil((input.durationMs / 1000) * MAX_WORDS_PER_SECOND);
    if (tokens.length > most) {
      throw new PermanentEngineError(`The transcript text has ${tokens.length} words, more than ${Math.round(input.durationMs / 1000)} s of media can hold (at most ${most}); check that the text belongs to this media.`);
    }
    const { words: recognized } = await recognize(input.wavPath, input.language, { signal: input.signal, decoders: input.decoders, mediaMs: input.durationMs, onProgress: (p) => input.onProgress(p * 0.9) });
    input.signal.throwIfAborted();
    let times;
    try {
      times = await input.offload.run('align', { tokens, recognized: recognized.map(({ text, start_ms, end_ms, confidence }) => ({ text, start_ms, end_ms, confidence })), durationMs: input.durationMs });
    } catch (e) {
      // Busy is transient (the job is retried); over time or memory is not.
      if (e instanceof OffloadError && (e.reason === 'time' || e.reason === 'memory')) throw new PermanentEngineError(`The transcript text could not be aligned: ${e.message}`);
      throw e;
    }
    let t = 0;
    const segments: Segment[] = sentences.map((tokens, idx) => {
      const words = tokens.map((token) => {
        const tm = times[t++];
        return { text: token, start_ms: tm.start, end_ms: tm.end, confidence: tm.confidence };
      });
      return { id: `s${idx + 1}`, speaker_id: null, start_ms: words[0].start_ms, end_ms: words.at(-1)!.end_ms, words };
    });
    return {
      transcript: { kind: 'transcript', version: CONTENT_VERSION, speakers: [], segments },
      metadata: { engine: 'pocketsphinx+align', matched_words: times.filter((x) => x.confidence > 0).length, diarization: diarizationNote(input.diarization) },
    };
  },
};
