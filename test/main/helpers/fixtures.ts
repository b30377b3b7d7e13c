/** Document content builders shared by the client tests (known words, known times). */
import type { CurrentUser, Document, Session } from '../../../common/api';
import type { DocumentBody, Segment, TranscriptContent } from '../../../common/transcript/model';

export function segment(id: string, startMs: number, text: string): Segment {
  const words = text.split(' ').map((w, i) => ({ text: w, start_ms: startMs + i * 300, end_ms: startMs + i * 300 + 250, confidence: 1 }));
  return { id, speaker_id: null, start_ms: startMs, end_ms: startMs + words.length * 300, words };
}

export function transcript(texts: string[]): TranscriptContent {
  return { kind: 'transcript', version: 1, speakers: [], segments: texts.map((t, i) => segment(`seg${i + 1}`, i * 10_000, t)) };
}

export function body(texts: string[]): DocumentBody {
  return { document_type: 'transcript', metadata: {}, content: transcript(texts) };
}

export const user: CurrentUser = { email: 'a@example.com', first_name: 'A', last_name: 'B', newsletter: false, roles: ['CUSTOMER'], two_factor_active: false, is_active: true, id: 7, identity_provider: 'local' };

export function sessionRes(id: string, lastModified: string): Session {
  return { session_id: id, duration: 10, error: null, filename: `${id}.wav`, media_type: 'audio/wav', media_url: '', language: 'en', status: 'completed', last_modified: lastModified };
}

export function documentRes(id: string, sessionId: string, lastModified: string, texts: string[]): Document {
  return {
    id, session_id: sessionId, filename: `${id}.json`, type: 'document', language: 'en', created: lastModified, last_modified: lastModified,
    finished: false, timecode_offset: '00:00:00:00', content_type: 'application/json', size_bytes: 1, document: body(texts),
  };
}
