/**
 * What a document save pays for the session duration kept from documents
 * (service/sessions/duration.ts), on a 3-hour transcript (2,000 segments, 24,000 words): the
 * refresh beside the save's own body UPDATE, in the same run, for a session with media (the
 * refresh is a no-op update) and for an upload-mode session without media (the document's end
 * taken from the body in hand, then the session's documents' stored end_ms).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, type Db } from '../service/db';
import { migrations } from '../service/migrations';
import type { DocumentBody } from '../common/transcript/model';
import { documentEndMs, refreshDocumentDuration } from '../service/sessions/duration';
import { row, type BenchModule, type BenchRow } from './harness';

const SAVES = 100;

function threeHourBody(): DocumentBody {
  const segments = Array.from({ length: 2000 }, (_, i) => ({
    id: `s${i}`,
    speaker_id: null,
    start_ms: i * 5400,
    end_ms: i * 5400 + 5000,
    words: Array.from({ length: 12 }, (_, j) => ({ text: 'word', start_ms: i * 5400 + j * 400, end_ms: i * 5400 + j * 400 + 350, confidence: 1 })),
  }));
  return { document_type: 'transcript', metadata: {}, content: { kind: 'transcript', version: 1, speakers: [], segments } };
}

function session(db: Db, org: number, user: number, mode: string, mediaType: string): number {
  const sql = `INSERT INTO sessions (session_id, org_id, user_id, filename, language, status, session_mode, keep_media, diarization, punctuation, media_type, created_at, last_modified)
    VALUES (?, ?, ?, 'bench', 'en', 'done', ?, 0, 0, 0, ?, 'x', 'x')`;
  return Number(db.prepare(sql).run(`bench-${mode}`, org, user, mode, mediaType).lastInsertRowid);
}

/** Mean milliseconds of one call over SAVES calls. */
function perCall(fn: (i: number) => void): number {
  const t0 = performance.now();
  for (let i = 0; i < SAVES; i++) fn(i);
  return (performance.now() - t0) / SAVES;
}

export const documentsBench: BenchModule = {
  name: 'documents',
  async run(): Promise<BenchRow[]> {
    const dir = mkdtempSync(join(tmpdir(), 'bench-documents-'));
    const db = openDb(join(dir, 'service.db'), migrations);
    try {
      const org = Number(db.prepare("INSERT INTO organizations (name, created_at) VALUES ('bench', 'x')").run().lastInsertRowid);
      const user = Number(db.prepare("INSERT INTO users (org_id, email, password_hash, created_at) VALUES (?, 'bench@example.com', 'x', 'x')").run(org).lastInsertRowid);
      const parsed = threeHourBody();
      const body = JSON.stringify(parsed);
      const write = db.prepare('UPDATE documents SET body = ?, last_modified = ? WHERE id = ?');
      const rows: BenchRow[] = [];
      for (const [label, mode, mediaType] of [
        ['session with media', 'decode', 'audio/wav'],
        ['upload-mode session without media', 'upload', 'text/plain'],
      ] as const) {
        const pk = session(db, org, user, mode, mediaType);
        const docId = `bench-doc-${mode}`;
        db.prepare("INSERT INTO documents (id, session_pk, filename, type, language, created, last_modified, finished, timecode_offset, body, original, end_ms) VALUES (?, ?, 'bench', 'document', 'en', 'x', 'x', 1, '00:00:00:00', ?, ?, ?)").run(docId, pk, body, body, documentEndMs(parsed));
        const peer = perCall((i) => write.run(body, String(i), docId));
        const ours = perCall(() => {
          documentEndMs(parsed);
          refreshDocumentDuration(db, pk);
        });
        rows.push(
          row({
            name: `document save, 3 h transcript, ${label}: duration refresh vs the save's body UPDATE`,
            unit: 'ms',
            ours,
            peer,
            target: 'ratio <= 0.05',
            met: ours <= peer * 0.05,
          }),
        );
      }
      return rows;
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
