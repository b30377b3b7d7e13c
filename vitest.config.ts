import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files whose assertions are wall-clock latencies (a live partial within 1 s of speech): they run
 * after the rest, one at a time, so another file's decoding does not take their CPU.
 */
const ALONE_FILES = ['test/service/realtime/edge-cases.test.ts'];
/**
 * The service's job tests, run a second time on a team server (redis-server, BullMQ, a worker
 * process); worker-work brings its own workers and runs only here (it skips itself elsewhere).
 */
const TEAM_FILES = [
  'test/service/work/states.test.ts',
  'test/service/work/batch-options.test.ts',
  'test/service/work/webhooks.test.ts',
  'test/service/work/transcribe.e2e.test.ts',
  'test/service/team/worker-work.test.ts',
];

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
      { extends: true, test: { name: 'tests', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...ALONE_FILES] } },
      { extends: true, test: { name: 'alone', include: ALONE_FILES, maxWorkers: 1, sequence: { groupOrder: 1 } } },
      // S2T_TEST_QUEUE=redis makes every startService bring a team server (test/helpers/team.ts).
      { extends: true, test: { name: 'team', include: TEAM_FILES, env: { S2T_TEST_QUEUE: 'redis' }, testTimeout: 180_000, hookTimeout: 180_000 } },
    ],
  },
});
