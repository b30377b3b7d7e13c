/**
 * A team server's document work (translation, summaries: jobs/document-work.ts) on the API node.
 * The request that asks for it waits for its answer, so the work lives as long as the request, in
 * memory: it goes on the queue of the workers that can run it (`s2t-translate-eng-spa`,
 * `s2t-summarize`), a worker claims it under a lease, and its outcome settles the request. A
 * worker that dies has its lock run out and another takes the work over with a new lease; the old
 * lease's outcome is refused. Nothing is stored, so an API node restart ends the waiting requests
 * with it (their callers ask again).
 */
import { randomBytes } from 'node:crypto';
import type { Queue } from 'bullmq';
import { z } from 'zod';
import type { ServiceContext } from '../context';
import { notInstalled } from '../engines/translate';
import { codedError } from '../http/errors';
import type { DocumentWork, DocumentWorkOutput } from '../jobs/document-work';
import { Capability, type QueueEntry } from './protocol';
import { queuesFor } from './routing';

/** How long a request waits for a worker to answer its document work. */
export const WORK_DEADLINE_MS = 5 * 60_000;
/** Outcomes remembered after they settled, so a resend after a lost answer is told "duplicate". */
const REMEMBERED = 1000;

interface Waiting {
  work: DocumentWork;
  lease: string | null;
  settle(outcome: { output: DocumentWorkOutput } | { error: Error }): void;
}

export function workQueueName(work: DocumentWork): string {
  return work.kind === 'translate' ? `s2t-translate-${work.mode}` : 's2t-summarize';
}

const what = (work: DocumentWork) => (work.kind === 'translate' ? 'translation' : 'summary');

export class DocumentWorkQueue {
  private readonly waiting = new Map<string, Waiting>();
  private readonly settled = new Set<string>();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly queue: (name: string) => Queue<QueueEntry>,
  ) {}

  /** What the workers of this team said they run (at their last hello), all together. */
  capabilities(): Capability[] {
    const rows = this.ctx.db.prepare('SELECT capabilities FROM workers').pluck().all() as string[];
    return rows.flatMap((c) => z.array(Capability).catch([]).parse(JSON.parse(c)));
  }

  /** Every queue some worker of this team said it takes from (at its last hello). */
  servedQueues(): Set<string> {
    return new Set(queuesFor(this.capabilities()));
  }

  /** The Apertium modes some worker advertised. */
  translationModes(): string[] {
    return [...this.servedQueues()].filter((q) => q.startsWith('s2t-translate-')).map((q) => q.slice('s2t-translate-'.length));
  }

  async run(work: DocumentWork): Promise<DocumentWorkOutput> {
    const name = workQueueName(work);
    if (!this.servedQueues().has(name)) {
      if (work.kind === 'translate') throw notInstalled(work.mode, work.source_language, work.target_language, 'on any worker of this team server');
      throw codedError(503, 'NO_WORKER', 'No worker of this team server makes summaries (start one without --engines, or with summarize among them).');
    }
    const id = `work_${randomBytes(12).toString('base64url')}`;
    let timer: NodeJS.Timeout | undefined;
    const outcome = new Promise<DocumentWorkOutput>((resolve, reject) => {
      this.waiting.set(id, { work, lease: null, settle: (o) => ('output' in o ? resolve(o.output) : reject(o.error)) });
      timer = setTimeout(
        () => reject(codedError(503, 'NO_WORKER', `No worker of this team server finished the ${what(work)} within ${WORK_DEADLINE_MS / 60_000} minutes (they may all be busy with recordings); try again later.`)),
        WORK_DEADLINE_MS,
      );
    });
    try {
      const entry: QueueEntry = { job_id: id, attempt_tag: 0, document: true };
      await this.queue(name).add('work', entry, { jobId: id });
      return await outcome;
    } finally {
      clearTimeout(timer);
      this.waiting.delete(id);
      // Still waiting for a worker (the deadline passed): no worker should start it now.
      await this.queue(name).remove(id).catch(() => undefined);
    }
  }

  /** A worker takes the work (or takes it over: the queue hands it on only when the holder's lock ran out). */
  claim(id: string): { status: 'claimed'; lease: string; work: DocumentWork } | { status: 'gone'; reason: string } {
    const w = this.waiting.get(id);
    if (!w) return { status: 'gone', reason: 'nobody waits for this work any more (answered, timed out, or the API node restarted)' };
    w.lease = randomBytes(18).toString('base64url');
    return { status: 'claimed', lease: w.lease, work: w.work };
  }

  /** The holder still holds the work under this lease. */
  holds(id: string, lease: string): boolean {
    return this.waiting.get(id)?.lease === lease;
  }

  /** Settles the waiting request; 'duplicate' for a resend of an outcome already taken, null when the lease does not hold it. */
  finish(id: string, lease: string, outcome: { output: DocumentWorkOutput } | { error: Error }): 'applied' | 'duplicate' | null {
    const key = `${id}:${lease}`;
    if (this.settled.has(key)) return 'duplicate';
    const w = this.waiting.get(id);
    if (!w || w.lease !== lease) return null;
    if ('output' in outcome && outcome.output.kind !== w.work.kind) return null;
    this.waiting.delete(id);
    this.settled.add(key);
    if (this.settled.size > REMEMBERED) this.settled.delete(this.settled.values().next().value!);
    w.settle(outcome);
    return 'applied';
  }

  /** The API node stops: the requests still waiting are answered. */
  stop(): void {
    for (const [id, w] of this.waiting) {
      this.waiting.delete(id);
      w.settle({ error: codedError(503, 'busy', 'The service is stopping; ask again in a moment.') });
    }
  }
}
