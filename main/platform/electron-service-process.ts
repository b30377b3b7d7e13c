/**
 * The embedded service in the Electron app: a utility process (utilityProcess.fork), whose
 * parentPort carries the owner credential. ELECTRON_RUN_AS_NODE is not an option: the RunAsNode
 * fuse is off in packaged apps (electron-builder.yml).
 */
import type { UtilityProcess } from 'electron';
import type { LaunchService } from '../embedded-service';

/** The slice of Electron's utilityProcess this needs (the fake electron module stands in for it in tests). */
export interface UtilityProcessLike {
  fork(modulePath: string, args: string[], options: { stdio: ['ignore', 'pipe', 'inherit']; serviceName: string }): UtilityProcess;
}

export function utilityProcessLauncher(utilityProcess: UtilityProcessLike): LaunchService {
  return (entry, args) => {
    const child = utilityProcess.fork(entry, args, { stdio: ['ignore', 'pipe', 'inherit'], serviceName: 'S2T local service' });
    let exited = false;
    child.once('exit', () => (exited = true));
    return {
      get pid() {
        return child.pid;
      },
      stdout: child.stdout!,
      postMessage: (m) => !exited && child.postMessage(m),
      onMessage: (fn) => child.on('message', fn),
      onExit: (fn) => child.once('exit', (code) => fn(code)),
      // UtilityProcess.kill() is SIGTERM; a service that will not stop gets SIGKILL by pid.
      kill: (force) => !exited && (force && child.pid ? process.kill(child.pid, 'SIGKILL') : child.kill()),
    };
  };
}
