/** One offload thread (service/offload/pool.ts): runs one task at a time and answers its output or its error's message. */
import { parentPort } from 'node:worker_threads';
import { tasks, type TaskName } from './tasks';

const port = parentPort;
if (!port) throw new Error('service/offload/worker.ts runs only as a worker thread');

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
