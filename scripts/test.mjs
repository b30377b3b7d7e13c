#!/usr/bin/env node
// `npm test`: everything the tests need, the build, then the typecheck, lint and suite side by side.
// On a fresh Debian or Ubuntu machine it installs the Debian packages and brings Node 24 itself;
// elsewhere it says exactly what is missing. Arguments go to vitest (`npm test -- test/service`).
// Plain JavaScript: it starts on whatever Node the machine has.
import { spawn, spawnSync } from 'node:child_process';
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

// The build comes first (the UI and app tests run dist/). Then the typecheck and the lint run beside
// the tests, which mostly wait on child processes; their output is held and printed when each ends.
// Without arguments vitest runs every project (vitest.config.ts), the service's job tests again on
// a team server (redis-server, BullMQ, a worker process) among them; a run of chosen files runs
// them once.
const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', env });
if (build.status !== 0) process.exit(build.status ?? 1);

function held(name, cmd, args) {
  return new Promise((resolvePromise) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      process.stdout.write(code === 0 ? `\n${name}: clean\n` : `\n${name} failed (exit ${code}):\n${out}\n`);
      resolvePromise(code ?? 1);
    });
  });
}

function inherited(cmd, args) {
  return new Promise((resolvePromise) => spawn(cmd, args, { env, stdio: 'inherit' }).on('close', (code) => resolvePromise(code ?? 1)));
}

const chosen = process.argv.slice(2);
const codes = await Promise.all([
  held('typecheck (tsc -b)', 'npm', ['run', '--silent', 'typecheck']),
  held('lint (eslint)', 'npm', ['run', '--silent', 'lint']),
  inherited('npx', ['vitest', 'run', ...(chosen.length ? ['--project', 'tests', '--project', 'alone', ...chosen] : [])]),
]);
process.exit(codes.find((c) => c !== 0) ?? 0);
