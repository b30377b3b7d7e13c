/** One offload thread (service/offload/pool.ts): runs one task at a time and answers its output or its error's message. */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { tasks, type TaskName } from './tasks';

const port = parentPort;
if (!port) throw new Error('service/offload/worker.ts runs only as a worker thread');

/**
 * The thread yields the CPU to the event loop: on Linux a thread has its own nice value, set
 * through its thread id (/proc/thread-self names it). Elsewhere it keeps the process's.
 */
const OFFLOAD_NICE = 10;
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), OFFLOAD_NICE);
} catch {
  /* not Linux, or not allowed: the default priority */
}

port.on('message', (m: { task: TaskName; input: never }) => {
  void (async () => {
    try {
      const output = await (tasks[m.task] as (input: never) => unknown)(m.input);
      port.postMessage({ ok: true, output });
    } catch (e) {
      port.postMessage({ ok: false, message: (e as Error).message, name: (e as Error).name });
    }
  })();
});
