#!/usr/bin/env node
// `npm test`: everything the tests need, then build, typecheck, lint and the suite. On a fresh
// Debian or Ubuntu machine it installs the Debian packages and brings Node 24 itself; elsewhere it
// says exactly what is missing. Arguments go to vitest (`npm test -- test/service`).
// Plain JavaScript: it starts on whatever Node the machine has.
import { spawnSync } from 'node:child_process';
import { node24Env } from './node24.mjs';
import { ensureTestPackages } from './preflight.mjs';

const problems = ensureTestPackages();
let env = process.env;
try {
  env = { ...process.env, ...node24Env() };
} catch (err) {
  problems.push(`${err.message}: install Node 24 (https://nodejs.org) and run npm test again.`);
}
if (problems.length) {
  console.error(`npm test cannot run yet:\n\n${problems.join('\n')}\n\nThen run \`npm test\` again.`);
  process.exit(1);
}

const steps = [
  ['npm', ['run', 'build']],
  ['npm', ['run', 'typecheck']],
  ['npm', ['run', 'lint']],
  ['npx', ['vitest', 'run', ...process.argv.slice(2)]],
];
// The whole suite also runs the service's job tests again on a team server (redis-server, BullMQ,
// a worker process); a run of chosen files does not.
if (process.argv.length <= 2) steps.push(['npm', ['run', 'test:team']]);
for (const [cmd, args] of steps) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
