/**
 * The embedded service's link to the app that started it: a message channel (Electron's
 * process.parentPort in a utility process, Node's IPC channel under child_process.fork) for the
 * owner credential, and the parent's life, which the service does not outlive.
 */
import { OwnerCredential } from './auth/owner-account';

/** What the service asks for; the app answers with the credential. */
export const OWNER_REQUEST = 's2t:owner-credential?';

interface ParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
}

function channel(): { post(m: unknown): void; listen(fn: (m: unknown) => void): void } {
  const port = (process as unknown as { parentPort?: ParentPort }).parentPort;
  if (port) return { post: (m) => port.postMessage(m), listen: (fn) => port.on('message', (e) => fn(e.data)) };
  if (process.send) return { post: (m) => process.send!(m), listen: (fn) => process.on('message', fn) };
  throw new Error('--owner-from-parent needs a parent message channel (Electron utilityProcess or child_process.fork)');
}

/** Asks the parent for the owner credential (asking first: a message sent before we listen would be lost). */
export function receiveOwnerCredential(timeoutMs = 30_000): Promise<OwnerCredential> {
  const ch = channel();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the app did not hand over the owner credential')), timeoutMs);
    ch.listen((m) => {
      const parsed = OwnerCredential.safeParse(m);
      if (!parsed.success) return;
      clearTimeout(timer);
      resolve(parsed.data);
    });
    ch.post(OWNER_REQUEST);
  });
}

/**
 * Calls `gone` once the parent has died, however it died (SIGKILL included): the orphan is
 * re-parented, so its parent pid changes from `parent` (read at start, before anything can
 * take long). One check every half second costs nothing.
 */
export function watchParent(parent: number, gone: () => void, everyMs = 500): void {
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    gone();
  }, everyMs);
  timer.unref();
}
