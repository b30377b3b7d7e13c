/**
 * Document work on a worker (jobs/document-work.ts): claims it from the API node, keeps its lease
 * alive while the engine runs, and answers the output or the engine's refusal as the route would
 * answer it on one machine (a missing Apertium pair is still a 501 with its words).
 */
import { HttpError } from '../http/errors';
import { runDocumentWork } from '../jobs/document-work';
import type { OffloadPool } from '../offload/pool';
import { OutcomeAnswer, ProgressAnswer, WorkClaimAnswer } from '../queue/protocol';
import { LeaseRefused, type ServiceClient } from './client';

const HEARTBEAT_MS = 1000;

export async function processDocumentWork(client: ServiceClient, offload: OffloadPool, workId: string): Promise<void> {
  const claim = await client.json(`/work/${workId}/claim`, {}, WorkClaimAnswer);
  if (claim.status === 'gone') return;
  const { lease } = claim;
  // The engine of one piece of work cannot be stopped halfway: a lost lease only means its answer is not wanted.
  const heartbeat = setInterval(() => void client.json(`/work/${workId}/progress`, { lease }, ProgressAnswer, 5000).catch(() => undefined), HEARTBEAT_MS);
  try {
    let outcome: { output: unknown } | { status: number; code: string; message: string };
    try {
      outcome = { output: await runDocumentWork(claim.work, (body) => offload.run('summaryPick', { body })) };
    } catch (e) {
      outcome = refusalOf(e as Error);
    }
    clearInterval(heartbeat);
    const path = 'output' in outcome ? 'result' : 'failure';
    await client.json(`/work/${workId}/${path}`, { lease, ...outcome }, OutcomeAnswer);
  } catch (e) {
    if (!(e instanceof LeaseRefused)) throw e;
  } finally {
    clearInterval(heartbeat);
  }
}

/** An engine's error as the route would answer it: its status, code and words, else a 500. */
function refusalOf(e: Error): { status: number; code: string; message: string } {
  if (e instanceof HttpError && e.status >= 400 && e.status <= 599) {
    const body = e.body.error;
    const code = typeof body === 'string' ? 'WORK_FAILED' : body.code;
    return { status: e.status, code: code.slice(0, 60), message: e.message.slice(0, 2000) };
  }
  return { status: 500, code: 'WORK_FAILED', message: `The document work failed: ${e.message}`.slice(0, 2000) };
}
