/**
 * Shared by the tests of heavy work on the service's event loop: a second client that asks the
 * service's health address every 100 ms and keeps its slowest answer, and large documents made
 * through the service's own upload mode.
 */
import { spawn } from 'node:child_process';
import type { Document } from '../../common/api';
import { CONTENT_VERSION, type DocumentBody, type Segment } from '../../common/transcript/model';
import { must } from '../service/answers';
import { jobDone, uploadedFileId, type Client } from '../service/work/helpers';

export const STT = '/api/v3/speech-to-text';
/** The longest a health answer may take while any request is served (the app's supervisor kills a service after about 4.5 s). */
export const HEALTH_LIMIT_MS = 1000;

export interface HealthWatch {
  /** Stops polling; the slowest answer (ms) and how many were asked. */
  stop(): Promise<{ slowestMs: number; answers: number }>;
}

/**
 * The watcher's own process: the test's process is busy with the heavy requests it sends (15 MB
 * to serialize, answers to read), and its stalls must not be blamed on the service. It asks
 * GET / (what the app's supervisor asks) every `everyMs`, each answer timed, until told to stop.
 */
const WATCHER = `
let stopped = false, slowest = 0, answers = 0;
process.stdin.on('data', () => { stopped = true; });
(async () => {
  while (!stopped) {
    const t0 = performance.now();
    try { const res = await fetch(process.argv[1] + '/', { signal: AbortSignal.timeout(120000) }); await res.arrayBuffer(); }
    catch { slowest = Infinity; }
    slowest = Math.max(slowest, performance.now() - t0);
    answers++;
    await new Promise((r) => setTimeout(r, Number(process.argv[2])));
  }
  process.stdout.write(JSON.stringify({ slowestMs: Math.round(slowest), answers }));
  process.exit(0);
})();
`;

export function watchHealth(url: string, everyMs = 100): HealthWatch {
  const child = spawn(process.execPath, ['-e', WATCHER, url, String(everyMs)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  return {
    async stop() {
      child.stdin.end('stop\n');
      await exited;
      const r = JSON.parse(out || '{"slowestMs":null,"answers":0}') as { slowestMs: number | null; answers: number };
      return { slowestMs: r.slowestMs ?? Infinity, answers: r.answers };
    },
  };
}

/** Runs `work` while the health address is watched; answers what work answered and the slowest health answer. */
export async function whileWatched<T>(url: string, work: () => Promise<T>): Promise<{ result: T; slowestMs: number }> {
  const watch = watchHealth(url);
  // The watcher's process starts and asks a first time before the work begins.
  await new Promise((r) => setTimeout(r, 400));
  try {
    const result = await work();
    return { result, slowestMs: (await watch.stop()).slowestMs };
  } catch (e) {
    await watch.stop();
    throw e;
  }
}

const VOCABULARY = 'budget library council river town walls spring flood school garden summer program children parents money office question answer meeting week'.split(' ');

/** A transcript of `segments` short segments of `wordsEach` words, drawn from a small vocabulary (every unit shares words with many others: TextRank's worst case). */
export function manySegments(segments: number, wordsEach: number, textOf?: (s: number, w: number) => string): DocumentBody {
  const list: Segment[] = [];
  for (let s = 0; s < segments; s++) {
    const start = s * (wordsEach * 300 + 500);
    const words = Array.from({ length: wordsEach }, (_, w) => ({
      text: textOf ? textOf(s, w) : VOCABULARY[(s * 7 + w * 3) % VOCABULARY.length],
      start_ms: start + w * 300,
      end_ms: start + w * 300 + 250,
      confidence: 0.9,
    }));
    list.push({ id: `s${s + 1}`, speaker_id: null, start_ms: start, end_ms: words.at(-1)!.end_ms, words });
  }
  return { document_type: 'transcript', metadata: {}, content: { kind: 'transcript', version: CONTENT_VERSION, speakers: [], segments: list } };
}

/** A body of about `bytes` of JSON (within 2%): segments of 20 words until it is that large. */
export function bodyOfSize(bytes: number): DocumentBody {
  const make = (n: number) => manySegments(n, 20, (s, w) => `word${w}x${s}`);
  const guess = Math.ceil(bytes / 1500);
  return make(Math.floor((guess * bytes) / JSON.stringify(make(guess)).length));
}

/** A small transcript document stored through the service's upload mode (a session without media); its full record. */
export async function uploadedDocument(c: Client, body: DocumentBody, name = 'doc.json'): Promise<Document> {
  const fileId = await uploadedFileId(c, JSON.stringify(body), name);
  const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en', session_mode: 'upload' });
  if (job.status !== 200) throw new Error(`transcribe answered ${job.status}: ${job.text}`);
  const done = await jobDone(c, job.body.job_id);
  if (done.status !== 'completed') throw new Error(`the upload job ${done.status}: ${done.error}`);
  const list = await c.json('documents.list', `${STT}/session/${done.metadata.session_id}/document`);
  return must(list.body.result.find((d) => d.type === 'document'), 'the transcript');
}

export const docPath = (d: Pick<Document, 'session_id' | 'id'>) => `${STT}/session/${d.session_id}/document/${d.id}`;
