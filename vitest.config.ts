import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** The service's job tests, run a second time on a team server (redis-server, BullMQ, a worker process). */
const TEAM_FILES = ['test/service/work/states.test.ts', 'test/service/work/batch-options.test.ts', 'test/service/work/webhooks.test.ts'];

export default defineConfig({
  test: {
    // Native modules (better-sqlite3) and child processes: forks are the safe pool.
    pool: 'forks',
    // Most files spend their time waiting on child processes (the service, Chromium, ffmpeg,
    // pocketsphinx), not computing: two files at a time keep a 2-core machine busy, where vitest's
    // default (cores - 1) would run one at a time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    globalSetup: ['./test/helpers/temp-root.ts'],
    projects: [
      { extends: true, test: { name: 'tests', include: ['test/**/*.test.ts'] } },
      // S2T_TEST_QUEUE=redis makes every startService bring a team server (test/helpers/team.ts).
      { extends: true, test: { name: 'team', include: TEAM_FILES, env: { S2T_TEST_QUEUE: 'redis' }, testTimeout: 180_000, hookTimeout: 180_000 } },
    ],
  },
});
