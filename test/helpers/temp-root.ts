/**
 * Vitest global setup: every test file's temporary files (services' data, tus uploads of several
 * GB, app data, Chromium profiles) go under one folder for the run, removed when the run ends, so
 * a run never leaves gigabytes behind in /tmp. Workers and their children inherit TMPDIR.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 's2t-run-'));
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
