/**
 * What the decoder may hear, over real HTTP: a glossary's made-up product name is recognised with
 * the glossary and not without it; an offensive word espeak-ng really says is left out by default
 * and heard with allow_profanity; mask_profanity masks an uploaded transcript's offensive word in
 * every export format.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopAndRemove, type RunningService } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';
import { must } from '../answers';
import { client, docOf, jobDone, transcriptOf, uploadedFileId, type Client } from './helpers';

let svc: RunningService;
let c: Client;

beforeAll(async () => {
  svc = await startService();
  c = await client(svc.url);
}, 60_000);

afterAll(() => stopAndRemove(svc));

async function transcribe(file: string, name: string, extra: Record<string, unknown> = {}) {
  const fileId = await uploadedFileId(c, readFileSync(file), name);
  const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en', ...extra });
  expect(job.status, job.text).toBe(200);
  const done = await jobDone(c, job.body.job_id, 180_000);
  expect(done.status, done.error ?? '').toBe('completed');
  const result = await c.json('batch.jobResult', `/api/v3/batch/jobs/${job.body.job_id}/result`);
  const doc = docOf(result.body.documents, 'document');
  const text = transcriptOf(doc).segments.flatMap((s) => s.words.map((w) => w.text)).join(' ');
  return { text, doc, sessionId: done.metadata.session_id, metadata: must(doc.document, 'the transcript body').metadata };
}

describe('a glossary', () => {
  it('makes a made-up product name heard, spelled as the glossary writes it', async () => {
    const wav = await speechWav('We will ship the Zorbatron next week. Every customer wants a Zorbatron.');
    const without = await transcribe(wav, 'product.wav');
    expect(without.text.toLowerCase()).not.toContain('zorbatron');
    const g = await c.json('glossaries.create', '/api/v4/glossaries', { name: 'products', source_language: 'en', target_language: 'es', entries: [{ source: 'Zorbatron', target: 'Zorbatron' }, { source: 'river', target: 'río' }] });
    expect(g.status, g.text).toBe(201);
    const withIt = await transcribe(wav, 'product.wav', { glossary_id: g.body.result.id });
    expect(withIt.text.split(' ').filter((w) => w === 'Zorbatron').length, withIt.text).toBeGreaterThanOrEqual(1);
    // 'river' is a word the model has already: it stays as it is (adding it again crashed libsphinxbase).
    expect(withIt.metadata.vocabulary).toMatchObject({ glossary_words: 2, pronounced_by_rules: ['zorbatron'] });
  }, 300_000);
});

describe('offensive words', () => {
  it('are not heard by default, even when said; allow_profanity lets the decoder hear them', async () => {
    const wav = await speechWav('Damn. What the hell is that? Oh shit, damn it.');
    const plain = await transcribe(wav, 'said.wav');
    expect(plain.text.split(' ')).not.toContain('shit');
    expect(plain.metadata.vocabulary).toMatchObject({ offensive_words: 'left out' });
    const allowed = await transcribe(wav, 'said.wav', { allow_profanity: true });
    expect(allowed.text.split(' ')).toContain('shit');
  }, 300_000);

  it('mask_profanity masks an uploaded transcript in every export', async () => {
    const fileId = await uploadedFileId(c, 'The printer jammed again. Oh shit, the report is due at noon.', 'given.txt');
    const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en', session_mode: 'upload', mask_profanity: true });
    const done = await jobDone(c, job.body.job_id);
    expect(done.status, done.error ?? '').toBe('completed');
    const result = await c.json('batch.jobResult', `/api/v3/batch/jobs/${job.body.job_id}/result`);
    const doc = docOf(result.body.documents, 'document');
    expect(must(doc.document, 'body').metadata.profanity).toEqual({ mask: true, masked: 1 });
    const dir = mkdtempSync(join(tmpdir(), 's2t-mask-'));
    try {
      for (const format of ['srt', 'vtt', 'sbv', 'ttml', 'txt', 'html', 'docx', 'pdf']) {
        const res = await fetch(`${c.url}/api/v3/speech-to-text/session/${done.metadata.session_id}/document/${doc.id}/export/${format}`, { headers: c.bearer });
        expect(res.status, format).toBe(200);
        const bytes = Buffer.from(await res.arrayBuffer());
        const file = join(dir, `x.${format}`);
        writeFileSync(file, bytes);
        const text =
          format === 'pdf'
            ? execFileSync('pdftotext', [file, '-']).toString()
            : format === 'docx'
              ? execFileSync('python3', ['-c', 'import sys,zipfile;print(zipfile.ZipFile(sys.argv[1]).read("word/document.xml").decode())', file]).toString()
              : bytes.toString('utf8');
        expect(text, format).toContain('s***');
        expect(text, format).toContain('printer');
        expect(text.toLowerCase(), format).not.toContain('shit');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
