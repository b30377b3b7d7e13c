import type { DocumentWork, DocumentWorkOutput } from './document-work';

/**
 * How the service's routes reach the engine work, whichever way it runs: the in-process runner
 * (jobs/runner.ts, the embedded default) or the distributed queue of a team server
 * (queue/distributed.ts, `--queue redis://…`). Jobs are rows in SQLite either way; the queue
 * decides where their engines run.
 */
export interface JobQueue {
  /** Settles what a previous run left half-done, then starts taking jobs. */
  start(): void;
  /** Stops taking jobs; what runs is left to be taken again (recovery, or another worker). */
  stop(): Promise<void>;
  /** A job was added: look at once rather than at the next poll. */
  wake(): void;
  /** The job was cancelled or its session erased: stop its engine where it runs. */
  abort(jobId: string): void;
  /** A document's translation or summary, run where the engines run; answers the engine's output for the route to store. */
  documentWork(work: DocumentWork): Promise<DocumentWorkOutput>;
  /** The Apertium modes the engines can run, and where that is (for the translation targets' reasons). */
  translationModes(): Promise<{ modes: string[]; where: string }>;
  /** Why a job naming speech engine `engine` cannot run where the jobs run, or null when it can. */
  speechEngineRefusal(engine: string, language: string, mode: 'decode' | 'align' | 'upload'): string | null;
}
