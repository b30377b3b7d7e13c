/**
 * A team server's throughput: the same short jobs of known speech run by the in-process runner
 * (the embedded default), then by a team server (API node, redis-server, BullMQ) with 1, 2 and 3
 * worker processes on this machine; each row is jobs per minute beside the in-process runner's
 * from the same run. And the queue's overhead: the CPU a worker process spends itself (queue,
 * HTTP, JSON, waveform) per job, beside the CPU of the engine processes it ran (ffmpeg,
 * pocketsphinx) per job.
 */
import { readFileSync } from 'node:fs';
import { startService, type RunningService } from '../test/helpers/service';
import { readServiceDb } from '../test/helpers/service-db';
import { speechWav } from '../test/helpers/speech';
import { addWorker, startRedis, startWorker, type RunningWorker } from '../test/helpers/team';
import { client, uploadedFileId } from '../test/service/work/helpers';
import { cpuMicros, row, type BenchModule, type BenchRow } from './harness';

const JOBS = 12;

/** CPU (µs) of the process's waited-for children: the engine tools a worker ran. */
function childCpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10_000;
}

/** Submits JOBS jobs and answers the minutes until all completed. */
async function runJobs(svc: RunningService): Promise<number> {
  const c = await client(svc.url);
  const wav = new Uint8Array(readFileSync(await speechWav('the weather is nice today and the sun is shining')));
  const fileIds: string[] = [];
  for (let i = 0; i < JOBS; i++) fileIds.push(await uploadedFileId(c, wav, `bench-${i}.wav`, 'audio/wav'));
  const t0 = performance.now();
  for (const file_id of fileIds) await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id, language: 'en' });
  for (;;) {
    const done = readServiceDb(svc.dataDir, (db) => db.prepare("SELECT COUNT(*) FROM jobs WHERE status IN ('completed', 'failed')").pluck().get() as number);
    if (done >= JOBS) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return (performance.now() - t0) / 60_000;
}

async function team(workerCount: number): Promise<{ minutes: number; workerCpu: number; engineCpu: number }> {
  const redis = await startRedis();
  // The in-process runner never runs on a team server's API node: --queue replaces it.
  const svc = await startService({ args: ['--queue', redis.url] });
  const workers: RunningWorker[] = [];
  try {
    for (let i = 1; i <= workerCount; i++) {
      workers.push(await startWorker({ name: `b${i}`, key: await addWorker(svc.dataDir, `b${i}`), queueUrl: redis.url, serviceUrl: svc.url, lockSeconds: 30 }));
    }
    const pids = workers.map((w) => w.child.pid!);
    const before = pids.map((p) => ({ own: cpuMicros(p), engine: childCpuMicros(p) }));
    const minutes = await runJobs(svc);
    const after = pids.map((p) => ({ own: cpuMicros(p), engine: childCpuMicros(p) }));
    const sum = (k: 'own' | 'engine') => after.reduce((s, a, i) => s + a[k] - before[i][k], 0);
    return { minutes, workerCpu: sum('own') / JOBS / 1000, engineCpu: sum('engine') / JOBS / 1000 };
  } finally {
    for (const w of workers) await w.stop();
    await svc.stop();
    await redis.stop();
  }
}

export const teamQueueBench: BenchModule = {
  name: 'team-queue',
  async run() {
    const inProcess = await startService({ args: ['--engine-concurrency', '1'] });
    let baseline: number;
    try {
      baseline = JOBS / (await runJobs(inProcess));
    } finally {
      await inProcess.stop();
    }
    const rows: BenchRow[] = [];
    let overhead: { workerCpu: number; engineCpu: number } | null = null;
    for (const n of [1, 2, 3]) {
      const t = await team(n);
      overhead ??= t;
      rows.push(row({ name: `team server, ${n} worker${n > 1 ? 's' : ''} on this machine, ${JOBS} short jobs (peer: the in-process runner, same jobs)`, unit: 'jobs/min', ours: JOBS / t.minutes, peer: baseline, target: n === 1 ? 'ratio >= 0.7' : 'ratio >= 0.9', met: JOBS / t.minutes >= baseline * (n === 1 ? 0.7 : 0.9) }));
    }
    rows.push(
      row({ name: "worker's own CPU per job: queue, HTTP, JSON, waveform (peer: the engine processes' CPU per job)", unit: 'ms CPU', ours: overhead!.workerCpu, peer: overhead!.engineCpu, target: 'ratio <= 0.5', met: overhead!.workerCpu <= overhead!.engineCpu * 0.5 }),
    );
    return rows;
  },
};
