#!/usr/bin/env node
// Node 24 for the project on a machine whose Node is older: brought once from the npm registry's
// `node` package into ~/.cache/s2t-node24 (override: S2T_NODE_PREFIX), with the headers node-gyp
// builds native addons against. As a command it prints shell `export` lines for `eval`.
// Plain JavaScript on purpose: it runs on the older Node.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE_MAJOR = 24;

/** Environment additions that put a Node of the right major first (none when this one is). */
export function node24Env() {
  let bin = dirname(process.execPath);
  if (Number(process.versions.node.split('.')[0]) < NODE_MAJOR) {
    const prefix = process.env.S2T_NODE_PREFIX ?? join(homedir(), '.cache', 's2t-node24');
    bin = join(prefix, 'node_modules', 'node', 'bin');
    if (!existsSync(join(bin, 'node'))) {
      process.stderr.write(`Node ${process.versions.node} is older than ${NODE_MAJOR}: fetching Node ${NODE_MAJOR} from the npm registry into ${prefix} (once)\n`);
      const r = spawnSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', `node@${NODE_MAJOR}`], { stdio: ['ignore', 'ignore', 'inherit'] });
      if (r.status !== 0 || !existsSync(join(bin, 'node'))) throw new Error(`could not install Node ${NODE_MAJOR} with npm`);
    }
  }
  const env = { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
  const nodedir = headersDir(join(bin, 'node'));
  if (nodedir) env.npm_config_nodedir = nodedir;
  return env;
}

// The registry's package keeps the binary (and include/) in node_modules/node-<os>-<arch>/.
function headersDir(nodeBinary) {
  const root = dirname(dirname(existsSync(nodeBinary) ? realpathSync(nodeBinary) : process.execPath));
  const nested = join(root, 'node_modules');
  const candidates = [root, ...(existsSync(nested) ? readdirSync(nested).filter((d) => d.startsWith('node-')).map((d) => join(nested, d)) : [])];
  return candidates.find((d) => existsSync(join(d, 'include', 'node', 'node.h')));
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [k, v] of Object.entries(node24Env())) console.log(`export ${k}='${v.replace(/'/g, `'\\''`)}'`);
}
