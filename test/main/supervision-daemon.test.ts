/**
 * The watch daemon's embedded service is supervised as the app's is: killed under the running
 * daemon, it comes back on the same address and a file dropped afterwards is still delivered.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { processesFor } from './helpers/processes';
import { startWatchDaemon } from './helpers/watch-daemon';

it('restarts the daemon\'s service after a SIGKILL and still delivers', async () => {
  const daemon = await startWatchDaemon('s2t-sup-daemon-');
  try {
    process.kill(daemon.servicePid(), 'SIGKILL');
    await expect.poll(() => daemon.line(/^local service running again$/), { timeout: 60_000 }).toBeDefined();
    expect(daemon.line(/^local service restarting: The local service stopped unexpectedly/)).toBeDefined();
    await daemon.delivers('after', 'the daemon keeps going after its service died');
  } finally {
    await daemon.stop();
  }
  expect(processesFor(join(daemon.data, 'local-service'))).toEqual([]);
}, 240_000);
