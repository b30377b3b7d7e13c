#!/usr/bin/env node
// Checks the Debian packages that `npm test` needs beyond npm (scripts/debian-packages.txt). On
// Debian or Ubuntu it installs the missing ones (as root, or through sudo without a password);
// elsewhere, or when it cannot, it names them. Plain JavaScript: it runs on an older Node too.
import { spawnSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const listFile = join(dirname(fileURLToPath(import.meta.url)), 'debian-packages.txt');
export const testPackages = readFileSync(listFile, 'utf8')
  .split('\n')
  .map((line) => line.replace(/#.*/, '').trim())
  .filter(Boolean);

const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { stdio: 'ignore', ...opts });
const has = (cmd) => run('sh', ['-c', `command -v ${cmd}`]).status === 0;
const installed = (pkg) =>
  run('dpkg-query', ['-W', '-f=${Status}', pkg], { stdio: ['ignore', 'pipe', 'ignore'] }).stdout?.toString().includes('install ok installed');

/** Installs what it can; returns what still stops the tests, in words (empty when nothing does). */
export function ensureTestPackages() {
  if (!has('dpkg-query') || !has('apt-get')) {
    return [
      'This is not a Debian or Ubuntu system, so the test tools cannot be installed for you.',
      `Install the equivalents of these Debian packages: ${testPackages.join(', ')}.`,
      'Chromium must be at /usr/bin/chromium.',
    ];
  }
  const missing = testPackages.filter((p) => !installed(p));
  if (!missing.length) return [];
  const root = process.getuid?.() === 0;
  const sudo = !root && has('sudo') && run('sudo', ['-n', 'true']).status === 0;
  if (!root && !sudo) {
    return ['These Debian packages are missing, and this user cannot install them:', `  sudo apt-get install --no-install-recommends ${missing.join(' ')}`];
  }
  console.log(`Installing ${missing.length} Debian package(s) the tests need: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => (root ? spawnSync('apt-get', args, { stdio: 'inherit', env }) : spawnSync('sudo', ['-n', 'apt-get', ...args], { stdio: 'inherit', env }));
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', '--no-install-recommends', ...missing]);
  const still = missing.filter((p) => !installed(p));
  return still.length ? [`apt-get could not install: ${still.join(' ')}.`] : [];
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = ensureTestPackages();
  if (problems.length) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
}
