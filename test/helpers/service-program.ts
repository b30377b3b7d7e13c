/**
 * How a test runs the service's programs: the built bundles when they are fresh, else the sources.
 * Its own module so that ./service and ./team (which ./service starts a team through) share it.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root; from import.meta.url, so this module loads under tsx (the benches) as well as vitest. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The newest modification time among the files a service bundle is built from. */
function newestSource(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  for (const d of ['service', 'common', 'node']) walk(join(ROOT, d));
  return newest;
}

const commands = new Map<string, string[]>();

/**
 * How to run one of the service's programs (`cli`: the service; `worker`: a team server's worker):
 * the built bundle, as the app and a team's machines run it, when `npm run build` made it after the
 * last change to its sources (it starts in a third of the CPU time of tsx, which compiles the
 * TypeScript at every start); else the sources through tsx, so a test never runs stale code.
 */
function serviceProgram(name: 'cli' | 'worker'): string[] {
  let command = commands.get(name);
  if (!command) {
    const bundle = [`${name}.js`, 'offload-worker.js'].map((f) => join(ROOT, 'dist/service', f));
    const built = bundle.every((f) => existsSync(f)) ? Math.min(...bundle.map((f) => statSync(f).mtimeMs)) : 0;
    command = built > newestSource() ? [bundle[0]] : ['--import', 'tsx', join(ROOT, name === 'cli' ? 'service/cli.ts' : 'service/worker/cli.ts')];
    commands.set(name, command);
  }
  return command;
}

/** The service's command line (see serviceProgram). */
export const serviceCli = (): string[] => serviceProgram('cli');
/** A team server's worker (see serviceProgram). */
export const workerCli = (): string[] => serviceProgram('worker');
