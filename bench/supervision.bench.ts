/**
 * How long the app is without its embedded service after a crash: SIGKILL to the supervisor's
 * 'running' (exit seen, backoff, a new process on the same port, ready), beside the peer of a cold
 * start of the same service (fork to ready), the floor any restart pays; and a hung process
 * (SIGSTOP) found by the default health checks and restarted, beside the same peer.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmbeddedService } from '../main/embedded-service';
import { superviseEmbeddedService, type ServiceSupervisor } from '../main/service-supervisor';
import { percentile, row, timeMs, type BenchModule } from './harness';

const ENTRY = resolve(import.meta.dirname, '..', 'dist/service/cli.js');
const ROUNDS = 5;

function back(sup: ServiceSupervisor): Promise<void> {
  return new Promise((res) => {
    const off = sup.onStatus((s) => s.state === 'running' && (off(), res()));
  });
}

export const supervisionBench: BenchModule = {
  name: 'supervision',
  async run() {
    const dataDir = mkdtempSync(join(tmpdir(), 's2t-bench-sup-'));
    const cold: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      let svc: Awaited<ReturnType<typeof startEmbeddedService>> | undefined;
      cold.push(await timeMs(async () => (svc = await startEmbeddedService({ dataDir, entry: ENTRY }))));
      await svc!.stop();
    }
    const sup = await superviseEmbeddedService({ dataDir, entry: ENTRY });
    const crash: number[] = [];
    try {
      for (let i = 0; i < ROUNDS; i++) {
        const returned = back(sup);
        crash.push(await timeMs(async () => (process.kill(sup.pid!, 'SIGKILL'), await returned)));
      }
      const returned = back(sup);
      const hung = await timeMs(async () => (process.kill(sup.pid!, 'SIGSTOP'), await returned));
      const peer = percentile(cold, 50);
      const ours = percentile(crash, 50);
      return [
        row({ name: 'service back after SIGKILL (median of 5) vs cold start', unit: 'ms', ours, peer, target: 'ratio <= 3', met: ours <= 3 * peer }),
        row({ name: 'service back after a hang (SIGSTOP, default health checks) vs cold start', unit: 'ms', ours: hung, peer, target: 'ratio <= 16 (the health checks take about 5 s to call a hang)', met: hung <= 16 * peer }),
      ];
    } finally {
      await sup.stop();
    }
  },
};
