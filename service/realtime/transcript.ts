/** A live stream's finals as the session's transcript: a segment per phrase, cut like batch output. */
import { CONTENT_VERSION, TranscriptContent } from '../../common/transcript/model';
import { segmentWords, type RecognizedWord } from '../engines/decode';
import type { FinalPhrase } from './recognizer';

export function transcriptFromFinals(phrases: FinalPhrase[]): TranscriptContent {
  const words: RecognizedWord[] = phrases.flatMap((p) =>
    p.words.map((w, i): RecognizedWord => ({ text: w.text, start_ms: w.startMs, end_ms: Math.max(w.startMs, w.endMs), confidence: w.confidence, utteranceStart: i === 0 })),
  );
  return { kind: 'transcript', version: CONTENT_VERSION, speakers: [], segments: segmentWords(words) };
}

/** Reads the transcript a live stream left for the job runner (checked: it is a file). */
export function parseLiveTranscript(text: string): TranscriptContent {
  return TranscriptContent.parse(JSON.parse(text));
}
