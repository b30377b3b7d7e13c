/**
 * Upload mode: the given document is stored as it is. A DocumentBody in JSON keeps its content;
 * a caption file (SRT, VTT, SBV, TTML) becomes the caption document as read and a transcript
 * derived from it; plain text becomes one segment per paragraph (no times are invented: 0).
 */
import { z } from 'zod';
import { parseCaptions } from '../../common/formats';
import { captionsToTranscript } from '../../common/transcript/from-captions';
import { CONTENT_VERSION, DocumentBody, type Segment } from '../../common/transcript/model';
import { OffloadError, OffloadTaskError } from '../offload/pool';
import { diarizationNote, PermanentEngineError, type Engine, type EngineResult } from './engine';

function captionFormat(text: string): string | null {
  const t = text.trimStart();
  if (t.startsWith('WEBVTT')) return 'vtt';
  if (t.startsWith('<?xml') || t.startsWith('<tt')) return 'ttml';
  if (/^\d+\s*\r?\n\d{2}:\d{2}:\d{2},\d{3} --> /.test(t)) return 'srt';
  if (/^\d+:\d{2}:\d{2}\.\d{3},\d+:\d{2}:\d{2}\.\d{3}/.test(t)) return 'sbv';
  return null;
}

export const uploadEngine: Engine = {
  name: 'upload',
  async run(input) {
    const text = input.text ?? '';
    if (!text.trim()) throw new PermanentEngineError('Upload mode needs a document.');
    // Parsing and checking a large document is heavy: it runs on an offload thread.
    try {
      return await input.offload.run('readUpload', { text, diarization: input.diarization });
    } catch (e) {
      if (e instanceof OffloadTaskError && e.kind === 'PermanentEngineError') throw new PermanentEngineError(e.message);
      if (e instanceof OffloadError && (e.reason === 'time' || e.reason === 'memory')) throw new PermanentEngineError(`The uploaded document could not be read: ${e.message}`);
      throw e;
    }
  },
};

/** The uploaded document as the engine's result (pure: runs on an offload thread). */
export function readUpload(text: string, diarization: boolean): EngineResult {
  const metadata = { engine: 'upload', diarization: diarizationNote(diarization) };
  if (text.trimStart().startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new PermanentEngineError('The uploaded document is not valid JSON.');
    }
    const body = DocumentBody.safeParse(json);
    if (!body.success) throw new PermanentEngineError(`The uploaded document does not fit the document model: ${z.prettifyError(body.error)}`);
    const content = body.data.content;
    return content.kind === 'transcript'
      ? { transcript: content, metadata: { ...body.data.metadata, ...metadata } }
      : { transcript: captionsToTranscript(content), captions: content, metadata: { ...body.data.metadata, ...metadata } };
  }
  const format = captionFormat(text);
  if (format) {
    let captions;
    try {
      captions = parseCaptions(format, text, { speakerPrefixes: true });
    } catch (e) {
      throw new PermanentEngineError(`The uploaded ${format.toUpperCase()} file could not be read: ${(e as Error).message}`);
    }
    return { transcript: captionsToTranscript(captions), captions, metadata: { ...metadata, source_format: format } };
  }
  const segments: Segment[] = text
    .split(/\n\s*\n/)
    .map((p) => p.split(/\s+/).filter(Boolean))
    .filter((w) => w.length > 0)
    .map((words, i) => ({ id: `s${i + 1}`, speaker_id: null, start_ms: 0, end_ms: 0, words: words.map((w) => ({ text: w, start_ms: 0, end_ms: 0, confidence: 1 })) }));
  return { transcript: { kind: 'transcript', version: CONTENT_VERSION, speakers: [], segments }, metadata: { ...metadata, source_format: 'txt' } };
}
