/**
 * Runs the local speech-to-text service (service/, bundled as dist/service/cli.js) as a child
 * process on a free loopback port, and stops it with the app. main never imports service code:
 * the two only meet over HTTP, exactly as with the cloud.
 *
 * The service has one account, the owner's. Its password is made here, fresh at every start, and
 * handed to the child over the message channel when the child asks for it: never argv, the
 * environment or a file. The child also ends when this process dies (service/parent-channel.ts).
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The owner account's e-mail; its password is random (see ownerCredential). */
export const OWNER_EMAIL = 'owner@s2t.local';
/** The child's request for the credential; the same string as service/parent-channel.ts. */
const OWNER_REQUEST = 's2t:owner-credential?';

export interface LocalAccount {
  email: string;
  password: string;
}

/** A started service process, as Node's fork or Electron's utilityProcess gives it. */
export interface ServiceProcess {
  pid: number | undefined;
  stdout: NodeJS.ReadableStream;
  postMessage(message: unknown): void;
  onMessage(fn: (message: unknown) => void): void;
  onExit(fn: (code: number | null) => void): void;
  /** SIGTERM (a clean shutdown); `force`: SIGKILL. */
  kill(force?: boolean): void;
}

/** Starts `entry` with `args` in a process that has a message channel to this one. */
export type LaunchService = (entry: string, args: string[]) => ServiceProcess;

/** Plain Node (browser mode, the watch daemon): child_process.fork, whose IPC channel carries the credential. */
export const forkService: LaunchService = (entry, args) => {
  const child = fork(entry, args, { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], execArgv: [] });
  return {
    pid: child.pid,
    stdout: child.stdout!,
    postMessage: (m) => child.connected && child.send(m as object),
    onMessage: (fn) => child.on('message', fn),
    onExit: (fn) => child.once('exit', (code) => fn(code)),
    kill: (force) => child.exitCode === null && child.kill(force ? 'SIGKILL' : 'SIGTERM'),
  };
};

export interface EmbeddedService {
  url: string;
  /** The owner account this run set up; main signs in with it (backend.ts). */
  owner: LocalAccount;
  pid: number | undefined;
  stop(): Promise<void>;
}

function serviceEntry(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const bundled = join(here, '..', 'service', 'cli.js');
  if (existsSync(bundled)) return bundled;
  throw new Error(`the local service is not built (${bundled} is missing): run npm run build`);
}

/** A new owner credential: 192 random bits, made at each start and kept only in memory. */
export function ownerCredential(): LocalAccount {
  return { email: OWNER_EMAIL, password: randomBytes(24).toString('base64url') };
}

/** How long a stopping service may take before it is killed. */
const STOP_GRACE_MS = 10_000;

export interface EmbeddedServiceOptions {
  dataDir: string;
  launch?: LaunchService;
  owner?: LocalAccount;
  entry?: string;
  stopGraceMs?: number;
  /** The port to listen on; 0 (default): any free one. */
  port?: number;
  /** Told when the process exits by itself (not through stop()): a crash or a kill from outside. */
  onUnexpectedExit?: (code: number | null) => void;
  /** Abandons a start still under way (the app quits): the child is killed and the start rejects. */
  signal?: AbortSignal;
}

export async function startEmbeddedService(opts: EmbeddedServiceOptions): Promise<EmbeddedService & { kill(): void }> {
  const owner = opts.owner ?? ownerCredential();
  const child = (opts.launch ?? forkService)(opts.entry ?? serviceEntry(), ['--port', String(opts.port ?? 0), '--data', opts.dataDir, '--owner-from-parent', '--quiet']);
  // Only this child can ask: the channel is ours alone.
  child.onMessage((m) => m === OWNER_REQUEST && child.postMessage(owner));
  let exitCode: number | null | undefined;
  let stopping = false;
  let ready = false;
  const exited = new Promise<void>((res) =>
    child.onExit((code) => {
      exitCode = code;
      res();
      if (ready && !stopping) opts.onUnexpectedExit?.(code);
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the local service did not start within 30 s')), 30_000);
    void exited.then(() => reject(new Error(`the local service exited (${exitCode}) before it was ready`)));
    opts.signal?.addEventListener('abort', () => reject(new Error('the local service start was abandoned')), { once: true });
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      const m = /^listening (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (m) resolve(m[1]);
      else reject(new Error(`the local service said "${line}" instead of its address`));
    });
  }).catch(async (err: Error) => {
    stopping = true;
    child.kill();
    const timer = setTimeout(() => child.kill(true), opts.stopGraceMs ?? STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
    throw err;
  });
  ready = true;
  return {
    url,
    owner,
    pid: child.pid,
    /** SIGKILL, as for a hung process: the exit then counts as unexpected. */
    kill: () => child.kill(true),
    async stop() {
      stopping = true;
      if (exitCode === undefined) child.kill();
      // Quitting the app must not hang on a service that does not finish its shutdown (seen: its
      // HTTP server waiting on a connection); SQLite in WAL mode is safe against the kill.
      const timer = setTimeout(() => child.kill(true), opts.stopGraceMs ?? STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
