/**
 * The embedded service's supervisor with the real built service (dist/service/cli.js): a SIGKILL
 * and a hung process (SIGSTOP) are each followed by a restart on the same port with the same owner
 * credential; stopping during a restart leaves no process behind.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceStatus } from '../../common/ipc/shell';
import { superviseEmbeddedService, type ServiceSupervisor } from '../../main/service-supervisor';
import { ROOT, serviceLogin, tempDir } from '../helpers/service';
import { processesFor } from './helpers/processes';

const ENTRY = join(ROOT, 'dist/service/cli.js');


let running: ServiceSupervisor | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

async function start(dataDir: string, extra: Partial<Parameters<typeof superviseEmbeddedService>[0]> = {}) {
  const statuses: ServiceStatus[] = [];
  const sup = await superviseEmbeddedService({ dataDir, entry: ENTRY, backoffMs: [100, 200, 400], ...extra });
  sup.onStatus((s) => statuses.push(s));
  running = sup;
  return { sup, statuses };
}

describe('embedded service supervision', () => {
  it('restarts a killed service on the same port, where the owner signs in again', async () => {
    const dataDir = tempDir('s2t-sup-');
    const { sup, statuses } = await start(dataDir);
    const { url, pid } = sup;
    await serviceLogin(url, sup.owner);
    process.kill(pid!, 'SIGKILL');
    await expect.poll(() => statuses.map((s) => s.state).join(','), { timeout: 30_000 }).toBe('restarting,running');
    expect(statuses[0].message).toMatch(/stopped unexpectedly/);
    expect(sup.url).toBe(url);
    expect(sup.pid).not.toBe(pid);
    expect(sup.status()).toEqual({ state: 'running', attempt: 0, message: null });
    // The same owner credential was handed over again.
    await serviceLogin(sup.url, sup.owner);
    expect(processesFor(dataDir)).toEqual([sup.pid]);
  });

  it('kills a hung service (it answers nothing) and starts it again', async () => {
    const dataDir = tempDir('s2t-sup-');
    const { sup, statuses } = await start(dataDir, { healthIntervalMs: 200, healthTimeoutMs: 500, healthFailures: 2 });
    const pid = sup.pid!;
    process.kill(pid, 'SIGSTOP');
    await expect.poll(() => statuses.map((s) => s.state).join(','), { timeout: 30_000 }).toBe('restarting,running');
    expect(processesFor(dataDir)).toEqual([sup.pid]);
    await serviceLogin(sup.url, sup.owner);
  });

  it('stopping during a restart leaves no process behind and starts nothing after', async () => {
    const dataDir = tempDir('s2t-sup-');
    const { sup, statuses } = await start(dataDir, { backoffMs: [0] });
    process.kill(sup.pid!, 'SIGKILL');
    await expect.poll(() => statuses.length, { timeout: 30_000 }).toBeGreaterThan(0);
    // The start is under way now (backoff 0): stop cancels it.
    await sup.stop();
    running = undefined;
    expect(processesFor(dataDir)).toEqual([]);
  });
});
