/**
 * Vitest global setup: every test file's temporary files (services' data, tus uploads of several
 * GB, app data, Chromium profiles) go under one folder for the run, removed when the run ends, so
 * a run never leaves gigabytes behind in /tmp. Workers and their children inherit TMPDIR.
 *
 * Vitest calls a global setup once for each project (vitest.config.ts has several): the first call
 * makes the folder and the others reuse it, since folders nested one per project make paths too
 * long for a Unix socket (Chromium's SingletonSocket must fit in 108 bytes).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MARK = 'S2T_TEST_TEMP_ROOT';

export default function setup(): () => void {
  if (process.env[MARK] && process.env.TMPDIR === process.env[MARK]) return () => {};
  const root = mkdtempSync(join(tmpdir(), 's2t-run-'));
  process.env.TMPDIR = root;
  process.env[MARK] = root;
  return () => {
    rmSync(root, { recursive: true, force: true });
    delete process.env[MARK];
  };
}
