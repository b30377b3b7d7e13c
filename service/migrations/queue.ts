import type { Migration } from '../db';

/** The distributed job queue (service/queue/): the workers of a team server and each job's lease. */
export const queueMigrations: Migration[] = [
  {
    version: 230,
    name: 'workers of a team server; a job remembers its dispatch, lease and heartbeat',
    up: `
      CREATE TABLE workers (
        name TEXT PRIMARY KEY,
        key_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        last_seen TEXT,
        -- What the worker said it runs at its last hello: [{engine, languages|null}], and its machine.
        capabilities TEXT NOT NULL DEFAULT '[]',
        machine TEXT NOT NULL DEFAULT '{}',
        jobs_done INTEGER NOT NULL DEFAULT 0,
        jobs_failed INTEGER NOT NULL DEFAULT 0
      );
      -- queued_attempt: the attempts count the job had when it was put on the distributed queue
      -- (its queue entry is named after it, so a second put of the same attempt is a no-op).
      -- lease: the current holder's claim; results quoting another lease are refused.
      ALTER TABLE jobs ADD COLUMN queued_attempt INTEGER;
      ALTER TABLE jobs ADD COLUMN queued_at INTEGER;
      ALTER TABLE jobs ADD COLUMN queue_name TEXT;
      ALTER TABLE jobs ADD COLUMN lease TEXT;
      ALTER TABLE jobs ADD COLUMN worker TEXT;
      ALTER TABLE jobs ADD COLUMN heartbeat_at INTEGER;
    `,
  },
  {
    version: 260,
    name: 'a job remembers what it charged to the processing quota, so it is charged once wherever it runs',
    up: `
      -- Media seconds charged to the organization's monthly processing quota for this job; NULL
      -- until charged. A retry, a takeover by another worker or a restart does not charge again.
      ALTER TABLE jobs ADD COLUMN charged_seconds REAL;
    `,
  },
];
