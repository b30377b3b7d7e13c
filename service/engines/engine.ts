/**
 * The engine interface: one module each (decode, align, upload). An engine turns a session's
 * input into a transcript; the job runner stores it as a transcript document and a caption
 * document of the session.
 */
import type { DocumentMetadata, TranscriptContent, Word } from '../../common/transcript/model';
import type { OffloadPool } from '../offload/pool';
import type { DecoderPool } from './decoder-pool';

export interface RecognizedWord extends Word {
  /** The word starts a new utterance (pocketsphinx: after <s>; a model engine: after a sentence end). */
  utteranceStart: boolean;
}

/**
 * A speech recogniser behind decode and align: pocketsphinx (no download) or a Whisper model. Both
 * see the same pause-cut chunks (engines/decode.ts recognize), so their words get the same
 * placement, overlap handling and time guard.
 */
export interface Recognizer {
  /** 'pocketsphinx' or 'whisper:NAME'. */
  id: string;
  /** What the document's metadata and the app call it. */
  label: string;
  /** The engine writes its own punctuation and casing (kept as it gives them). */
  punctuates: boolean;
  supports(language: string): boolean;
  /** Words of one chunk WAV, times relative to the chunk's start; a lexicon only pocketsphinx takes (./lexicon). */
  decodeChunk(file: string, language: string, signal: AbortSignal, lexicon?: import('./lexicon').Lexicon | null): Promise<RecognizedWord[]>;
}

export interface EngineInput {
  /** 16 kHz mono WAV of the session's media (absent in upload mode). */
  wavPath?: string;
  durationMs: number;
  language: string;
  /** align: the given text; upload: the given document as text. */
  text?: string;
  diarization: boolean;
  /** The legacy create's punctuation key (decode only: see ./punctuate). */
  punctuation: boolean;
  signal: AbortSignal;
  /** The decoder's dictionary and language model for this job (./lexicon); absent: pocketsphinx's own. */
  lexicon?: import('./lexicon').Lexicon | null;
  /** The service's bound on speech-decoder processes (shared by every running job). */
  decoders: DecoderPool;
  /** The service's threads for heavy pure work (align's diff). */
  offload: OffloadPool;
  /** The recogniser chosen for this job's language (engines/registry.ts); pocketsphinx when absent. */
  recognizer?: Recognizer;
  /** 0..100 of this engine's work, reported as it goes (decode: chunk by chunk). */
  onProgress(percent: number): void;
}

export interface EngineResult {
  transcript: TranscriptContent;
  metadata: DocumentMetadata;
  /** upload mode: a caption document given as is (otherwise captions are cut from the transcript). */
  captions?: import('../../common/transcript/model').CaptionContent;
}

export interface Engine {
  name: 'decode' | 'align' | 'upload';
  /** Whether this machine can run the engine in that language (absent: any language); a team server's workers advertise it. */
  supports?(language: string): boolean;
  run(input: EngineInput): Promise<EngineResult>;
}

/** A failure no retry can fix (bad media, unsupported language): the job fails at once. */
export class PermanentEngineError extends Error {
  override name = 'PermanentEngineError';
}

/**
 * What an engine without its own speaker step says about speakers; the job runner's speaker step
 * (./speakers) replaces it whenever there is audio to tell speakers apart from.
 */
export function diarizationNote(requested: boolean): DocumentMetadata['diarization'] {
  return {
    requested,
    available: false,
    note: requested ? 'Speakers were asked for, but there is no audio to tell them apart from; the document keeps the speakers it was given.' : 'Speakers were not asked for.',
  };
}
