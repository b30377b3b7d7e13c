/**
 * The summarize route over real HTTP: a 60 s espeak-ng recording transcribed by the local service
 * (pocketsphinx: no punctuation, so units come from pauses and segment bounds), and a punctuated
 * text stored in upload mode. A summary is at most a quarter of the words, is not the source's
 * words in order, keeps its units' times, and keeps the sentences TextRank ranks highest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Document } from '../../../common/api';
import type { Word } from '../../../common/transcript/model';
import { startService, stopAndRemove, type RunningService } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';
import { must } from '../answers';
import { client, jobDone, transcriptOf as transcriptContent, uploadedFileId, type Client } from '../work/helpers';
import { readFileSync } from 'node:fs';

const STT = '/api/v3/speech-to-text';
const RATIO = 0.25;
/** What the summary leaves in the document's metadata: each unit's words and times. */
const SummaryUnits = z.array(z.object({ text: z.string(), start_ms: z.number(), end_ms: z.number() }));

/** About a minute of a meeting at 150 words a minute: the budget keeps coming back, the lunch and the weather do not. */
const MEETING = [
  'Good morning everyone and thank you for joining the budget meeting.',
  'The first item today is the budget for the new library building.',
  'Last year the library budget was too small for the new building.',
  'The city council wants a smaller budget for the library next year.',
  'We should ask the council to keep the library budget at the same level.',
  'Lunch will be served at noon in the small room upstairs.',
  'The second item is the school garden and the summer program for children.',
  'Parents asked for more money for the summer program in the garden.',
  'The weather was very cold this morning so please close the windows.',
  'To finish, the budget for the library and the summer program will be voted next week.',
  'Please send your questions about the budget to the office before Friday.',
  'The office will answer every question about the library budget by Monday.',
  'Thank you all for coming, and see you at the next budget meeting.',
].join(' ');

/** A punctuated text whose middle sentence is about what every other sentence is about, and one sentence about nothing else. */
const PUNCTUATED = [
  'The river floods the old town every spring.',
  'Engineers studied the river and the old town walls for two years.',
  'My cousin bought a red bicycle yesterday.',
  'The river walls of the old town need repair before the spring floods.',
  'Repairing the walls will protect the town from the river.',
  'The town council will pay for the repair of the walls.',
  'Spring floods damaged the river walls of the town in many years.',
  'Volunteers will help clean the streets after the floods.',
].join(' ');

let svc: RunningService;
let c: Client;

const words = (s: string) => s.split(/\s+/).filter((w) => w && w !== '…');
const docWords = (doc: Document): Word[] => transcriptContent(doc).segments.flatMap((s) => s.words);

async function transcriptOf(content: string | Uint8Array<ArrayBuffer>, filename: string, mode?: 'upload'): Promise<Document> {
  const file_id = await uploadedFileId(c, content, filename);
  const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id, language: 'en', ...(mode ? { session_mode: mode } : {}) });
  expect(job.status).toBe(200);
  const done = await jobDone(c, job.body.job_id, 600_000);
  expect(done.status, JSON.stringify(done.error)).toBe('completed');
  const list = await c.json('documents.list', `${STT}/session/${done.metadata.session_id}/document?include_content=true`);
  return must(list.body.result.find((d) => d.type === 'document'), 'the transcript');
}

async function summarize(doc: Document): Promise<{ summary: string; document: Document }> {
  const r = await c.json('documents.summarize', `${STT}/session/${doc.session_id}/document/${doc.id}/export/summarize`);
  expect(r.status, r.text).toBe(200);
  return r.body;
}

beforeAll(async () => {
  svc = await startService();
  c = await client(svc.url);
}, 60_000);

afterAll(() => stopAndRemove(svc));

describe('summary of a recorded meeting (no punctuation)', () => {
  let source: Document;
  let result: { summary: string; document: Document };

  beforeAll(async () => {
    const wav = await speechWav(MEETING);
    source = await transcriptOf(new Uint8Array(readFileSync(wav)), 'meeting.wav');
    result = await summarize(source);
  }, 620_000);

  it('is a recording of about a minute, with no sentence ends from the engine', () => {
    const all = docWords(source);
    expect(must(all.at(-1), 'the last word').end_ms).toBeGreaterThan(55_000);
    expect(all.length).toBeGreaterThan(100);
    expect(all.some((w) => /[.!?]$/.test(w.text))).toBe(false);
  });

  it('uses at most a quarter of the words, and not the same words in the same order', () => {
    const all = docWords(source).map((w) => w.text);
    const kept = words(result.summary);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThanOrEqual(Math.round(all.length * RATIO));
    expect(kept.join(' ')).not.toBe(all.join(' '));
    expect(transcriptContent(result.document).summary).toBe(result.summary);
  });

  it('keeps several units in reading order, each a run of the transcript\'s words at its own times', () => {
    const units = SummaryUnits.parse(result.document.document?.metadata.summary_units);
    expect(units.length).toBeGreaterThan(1);
    const all = docWords(source);
    let after = -1;
    for (const u of units) {
      expect(u.start_ms).toBeGreaterThan(after);
      after = u.end_ms;
      const inside = all.filter((w) => w.start_ms >= u.start_ms && w.end_ms <= u.end_ms).map((w) => w.text);
      expect(inside.join(' ')).toBe(u.text);
    }
    expect(result.summary).toBe(units.map((u) => u.text).join(' … '));
  });
});

describe('summary of a punctuated text', () => {
  let result: { summary: string; document: Document };
  let total: number;

  beforeAll(async () => {
    const doc = await transcriptOf(PUNCTUATED, 'flood-notes.txt', 'upload');
    total = docWords(doc).length;
    result = await summarize(doc);
  }, 120_000);

  it('is whole sentences, at most a quarter of the words', () => {
    const kept = words(result.summary);
    expect(kept.length).toBeLessThanOrEqual(Math.round(total * RATIO));
    const sentences = PUNCTUATED.split(/(?<=\.)\s+/);
    for (const u of SummaryUnits.parse(result.document.document?.metadata.summary_units)) expect(sentences).toContain(u.text);
  });

  it('keeps the sentence every other sentence is about, and drops the one about nothing else', () => {
    expect(result.summary).toContain('The river walls of the old town need repair before the spring floods.');
    expect(result.summary).not.toContain('bicycle');
  });

  it('summarizing again gives the same summary (it reads the text, not the old summary)', async () => {
    const again = await summarize(result.document);
    expect(again.summary).toBe(result.summary);
  });
});
