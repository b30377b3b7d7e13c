import { spawn } from 'node:child_process';
import { toolPath } from '../../node/tools';

export class ToolError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
    readonly code: number | null,
  ) {
    super(message);
  }
}

export interface RunOptions {
  signal?: AbortSignal;
  input?: string;
  timeoutMs?: number;
}

/**
 * Runs a command line tool (ffmpeg, pocketsphinx, apertium; the app's own copy where it carries
 * one, node/tools.ts) without a shell, collects
 * stdout and the tail of stderr, and stops it when the signal aborts (job cancelled, shutdown).
 */
export function runTool(cmd: string, args: string[], opts: RunOptions = {}): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(toolPath(cmd), args, { stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], signal: opts.signal, timeout: opts.timeoutMs });
    const out: Buffer[] = [];
    let err = '';
    child.stdout!.on('data', (d: Buffer) => out.push(d));
    child.stderr!.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-4000);
    });
    if (opts.input !== undefined) child.stdin!.end(opts.input);
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') reject(new ToolError(`${cmd} is not installed`, '', null));
      else reject(e);
    });
    child.on('close', (code, signal) => {
      const stdout = Buffer.concat(out).toString('utf8');
      if (code === 0) resolve({ stdout, stderr: err });
      else reject(new ToolError(`${cmd} failed (${signal ?? `exit ${code}`})`, err, code));
    });
  });
}

/** True when `cmd` can be started (used to answer 501 rather than fail a job). */
export async function toolInstalled(cmd: string, probeArgs: string[] = ['--version']): Promise<boolean> {
  try {
    await runTool(cmd, probeArgs, { timeoutMs: 10_000 });
    return true;
  } catch (e) {
    return !(e instanceof ToolError && e.code === null && /not installed/.test(e.message));
  }
}
