/** The processes a test started, found by what their command line names (a data folder). */
import { execFileSync } from 'node:child_process';

/** Live (not zombie) processes whose command line names `dir`: ours only, by their --data. */
export function processesFor(dir: string): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.includes(dir) && !/^\s*\d+\s+Z/.test(l)).map((l) => Number(l.trim().split(/\s+/)[0]));
}
