/**
 * A team server's worker, on any machine that reaches both the queue server and the API node:
 *   S2T_WORKER_KEY=… npm run worker -- --queue redis://HOST:PORT --service https://API-NODE [--data DIR] [--lock-seconds 30]
 *     [--engines decode,align,upload,translate,summarize]
 * The key comes from `npm run service -- worker add NAME` on the API node; it is read from the
 * environment, never from the command line (where `ps` shows it). Prints `worker NAME ready:
 * QUEUES` once it takes jobs; SIGTERM or SIGINT stops it (a job it held is taken over elsewhere).
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { stderrLogger } from '../context';
import { parseQueueUrl } from '../queue/queue-url';
import { ENGINE_NAMES } from '../queue/routing';
import { TeamWorker } from './worker';

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      queue: { type: 'string' },
      service: { type: 'string' },
      data: { type: 'string', default: '.data/worker' },
      'lock-seconds': { type: 'string', default: '30' },
      engines: { type: 'string' },
      quiet: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const key = process.env.S2T_WORKER_KEY ?? '';
  if (!/^s2tw_[a-z0-9-]+_\S+$/.test(key)) throw new Error('S2T_WORKER_KEY must hold the key `npm run service -- worker add NAME` printed');
  const queueUrl = parseQueueUrl(values.queue);
  if (!queueUrl) throw new Error('--queue redis://HOST:PORT (the team server\'s queue server) is required');
  let serviceUrl: URL;
  try {
    serviceUrl = new URL(values.service ?? '');
  } catch {
    throw new Error('--service must be the http(s) address of the API node');
  }
  if (!/^https?:$/.test(serviceUrl.protocol)) throw new Error('--service must be the http(s) address of the API node');
  const lockSeconds = Number(values['lock-seconds']);
  if (!Number.isFinite(lockSeconds) || lockSeconds < 2 || lockSeconds > 600) throw new Error('--lock-seconds must be between 2 and 600');
  const engines = values.engines?.split(',').map((e) => e.trim()).filter(Boolean);
  const unknown = engines?.filter((e) => !ENGINE_NAMES.includes(e)) ?? [];
  if (engines && (engines.length === 0 || unknown.length > 0)) throw new Error(`--engines takes a comma-separated list of ${ENGINE_NAMES.join(', ')}${unknown.length ? `; not an engine: ${unknown.join(', ')}` : ''}`);
  const dataDir = resolve(values.data!);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });

  const log = stderrLogger(values.quiet);
  const worker = new TeamWorker({ queueUrl, serviceUrl: serviceUrl.origin, key, dataDir, lockMs: lockSeconds * 1000, engines, log });
  const queues = await worker.start();
  process.stdout.write(`worker ${key.split('_')[1]} ready: ${queues.join(' ')}\n`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('worker stopping', { signal });
    await worker.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main(process.argv.slice(2)).catch((err: Error) => {
  process.stderr.write(`s2t-worker: ${err.message}\n`);
  process.exit(1);
});
