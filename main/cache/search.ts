/**
 * Full-text search over every cached document (FTS5, one row per run of consecutive segments or
 * cues, up to ROW_WORDS words; see segmentRows). A hit carries a snippet with the matched words
 * between « and », and the media time of the first matched word, so the UI can jump there.
 */
import { stmt, type ReadableDb } from './db';

export interface SearchHit {
  session_id: string;
  document_id: string;
  filename: string;
  snippet: string;
  time_ms: number | null;
}

/**
 * The tokens FTS5's unicode61 tokenizer (remove_diacritics 2) makes of `s`: letters, digits and
 * private-use characters, folded to lower case without diacritics; anything else separates. So
 * "Don't" is "don" "t", exactly as the indexed text was split.
 */
export function tokens(s: string): string[] {
  return s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().split(/[^\p{L}\p{N}\p{Co}]+/u).filter(Boolean);
}

/**
 * The user's words as an FTS5 query: every word must occur, each as the phrase of its tokens (so
 * "don't" matches "don't", not any "don" and any "t"); the last may be a prefix. Tokens hold only
 * letters and digits, so no FTS syntax leaks through.
 */
export function ftsQuery(q: string): { match: string; terms: string[] } | null {
  const terms = q.split(/\s+/).map((w) => tokens(w).join(' ')).filter(Boolean);
  if (!terms.length) return null;
  const match = terms.map((t, i) => `"${t}"${i === terms.length - 1 ? '*' : ''}`).join(' ');
  return { match, terms };
}

/** The start time of the first word of `text` that matches a term (the last term as a prefix). */
function hitTime(text: string, starts: string, segmentStart: number, terms: string[]): number {
  if (!starts) return segmentStart;
  const words = text.split(' ');
  const times = starts.split(',');
  for (let i = 0; i < words.length; i++) {
    const w = tokens(words[i]).join(' ');
    if (terms.some((t, k) => (k === terms.length - 1 ? w.startsWith(t) : w === t))) return Number(times[i] ?? segmentStart);
  }
  return segmentStart;
}

export function searchText(db: ReadableDb, accountId: number, q: string, limit: number): SearchHit[] {
  const query = ftsQuery(q);
  if (!query) return [];
  const rows = stmt(db, `SELECT t.document_id, t.start_ms, t.starts, t.text, snippet(text_fts, 0, '«', '»', '…', 12) AS snippet, d.filename, d.session_id
      FROM text_fts JOIN text_segments t ON t.rowid = text_fts.rowid
      JOIN documents d ON d.id = t.document_id JOIN sessions s ON s.session_id = d.session_id
      WHERE text_fts MATCH ? AND d.deleted = 0 AND s.account_id = ?
      ORDER BY rank LIMIT ?`)
    .all(query.match, accountId, limit) as { document_id: string; start_ms: number; starts: string; text: string; snippet: string; filename: string; session_id: string }[];
  return rows.map((r) => ({
    session_id: r.session_id,
    document_id: r.document_id,
    filename: r.filename,
    snippet: r.snippet,
    time_ms: hitTime(r.text, r.starts, r.start_ms, query.terms),
  }));
}
