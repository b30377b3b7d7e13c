/**
 * The engine interface: one module each (decode, align, upload). An engine turns a session's
 * input into a transcript; the job runner stores it as a transcript document and a caption
 * document of the session.
 */
import type { DocumentMetadata, TranscriptContent } from '../../common/transcript/model';
import type { DecoderPool } from './decoder-pool';

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
  run(input: EngineInput): Promise<EngineResult>;
}

/** A failure no retry can fix (bad media, unsupported language): the job fails at once. */
export class PermanentEngineError extends Error {}

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
