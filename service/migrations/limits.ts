import type { Migration } from '../db';

/** Guards against work that takes the service down or fills its disk (versions 160-169). */
export const limitsMigrations: Migration[] = [
  {
    version: 160,
    name: 'jobs count the runs the service did not survive; organizations count the media they had processed per month',
    up: `
      -- A job still processing when the service starts again was running when it died (a crash,
      -- or a kill because it stopped answering): counted here, so a job that keeps taking the
      -- service down fails instead of looping. A clean stop puts its jobs back without counting.
      ALTER TABLE jobs ADD COLUMN interruptions INTEGER NOT NULL DEFAULT 0;

      CREATE TABLE processing_usage (
        org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        month TEXT NOT NULL,
        seconds REAL NOT NULL DEFAULT 0,
        PRIMARY KEY (org_id, month)
      );
    `,
  },
];
