/**
 * Constructs and runs the service: `serve(argv)` is what `npm run service` runs (through cli.ts).
 * Tests that need a fake DNS or short webhook timings call `serve(argv, tuning)` from their own
 * entry script; no flag or environment variable reaches `tuning`.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from './app';
import { setOwnerAccount } from './auth/owner-account';
import { createUser, findUserByEmail } from './auth/users';
import { stderrLogger, type ServiceConfig, type ServiceContext, type ServiceTuning } from './context';
import { openDb } from './db';
import { parseSmtp } from './mail/send';
import { migrations } from './migrations';
import { parseTrustProxy } from './http/trust-proxy';
import { OffloadPool } from './offload/pool';
import { WHISPER_CATALOG } from './speech-models/catalog';
import { openSpeechEngines } from './speech-models/open';
import { receiveOwnerCredential, watchParent } from './parent-channel';
import { parseQueueUrl } from './queue/queue-url';

function loadSecret(dataDir: string): Uint8Array {
  const file = join(dataDir, 'secret.key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32), { mode: 0o600 });
  chmodSync(file, 0o600);
  return new Uint8Array(readFileSync(file));
}

function positiveInt(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${flag} must be a positive integer`);
  return n;
}

function positiveNumber(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} must be a positive number`);
  return n;
}

/** --public-url: an http(s) origin (a path prefix is refused: every route is served at the root). */
export function parsePublicUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`--public-url must be an http or https URL (got "${raw}")`);
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash || url.pathname !== '/') {
    throw new Error(`--public-url must be an http or https origin with no path, query or credentials (got "${raw}")`);
  }
  return url.origin;
}

/** How long a stopping service waits for requests in flight before it cuts their connections. */
const SHUTDOWN_GRACE_MS = 3000;

export async function serve(argv: string[], tuning?: ServiceTuning): Promise<void> {
  const parent = process.ppid;
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '0' },
      data: { type: 'string', default: '.data/service' },
      'demo-user': { type: 'string' },
      'demo-password': { type: 'string' },
      // The app's embedded service: the owner account's credential comes over the parent's
      // message channel, and the service ends with its parent.
      'owner-from-parent': { type: 'boolean', default: false },
      'allow-private-webhooks': { type: 'boolean', default: false },
      'rate-limit': { type: 'string', default: '6000' },
      'rate-window-seconds': { type: 'string', default: '60' },
      'engine-concurrency': { type: 'string', default: '1' },
      'max-media-hours': { type: 'string', default: '12' },
      'org-storage-gb': { type: 'string', default: '50' },
      'org-processing-hours': { type: 'string', default: '200' },
      'sso-redirect-uri': { type: 'string', multiple: true, default: [] },
      'public-url': { type: 'string' },
      // Credentials in the URL are better given as S2T_SMTP_URL: a flag shows in the process list.
      'smtp-url': { type: 'string' },
      'smtp-from': { type: 'string' },
      // The reverse proxy in front (the --public-url set-up): a hop count or its addresses.
      'trust-proxy': { type: 'string' },
      queue: { type: 'string' },
      'model-store-max-gb': { type: 'string', default: '64' },
      quiet: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const dataDir = resolve(values.data!);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const config: ServiceConfig = {
    host: '127.0.0.1',
    port: Number(values.port),
    dataDir,
    allowPrivateWebhooks: values['allow-private-webhooks']!,
    rateLimit: { max: positiveInt('--rate-limit', values['rate-limit']!), windowMs: positiveInt('--rate-window-seconds', values['rate-window-seconds']!) * 1000 },
    engineConcurrency: positiveInt('--engine-concurrency', values['engine-concurrency']!),
    bodyLimitBytes: 16 * 1024 * 1024,
    maxMediaSeconds: positiveNumber('--max-media-hours', values['max-media-hours']!) * 3600,
    quota: {
      storageBytes: Math.round(positiveNumber('--org-storage-gb', values['org-storage-gb']!) * 1024 ** 3),
      processingSecondsPerMonth: positiveNumber('--org-processing-hours', values['org-processing-hours']!) * 3600,
    },
    ssoRedirectUris: values['sso-redirect-uri']!,
    publicUrl: parsePublicUrl(values['public-url'] ?? process.env.S2T_PUBLIC_URL),
    smtp: parseSmtp(values['smtp-url'] ?? process.env.S2T_SMTP_URL, values['smtp-from'] ?? process.env.S2T_SMTP_FROM),
    trustProxy: parseTrustProxy(values['trust-proxy'] ?? process.env.S2T_TRUST_PROXY),
    queueUrl: parseQueueUrl(values.queue),
  };
  const db = openDb(join(dataDir, 'service.db'), migrations);
  let baseUrl = '';
  const log = stderrLogger(values.quiet);
  const { speech, modelDownloads } = openSpeechEngines(dataDir, tuning?.modelCatalog ?? WHISPER_CATALOG, positiveNumber('--model-store-max-gb', values['model-store-max-gb']!) * 1024 ** 3, log);
  const ctx: ServiceContext = { db, config, log, secret: loadSecret(dataDir), offload: new OffloadPool(), baseUrl: () => baseUrl, tuning, speech, modelDownloads };

  const demoUser = values['demo-user'];
  if (demoUser) {
    if (!values['demo-password']) throw new Error('--demo-user needs --demo-password');
    if (!findUserByEmail(db, demoUser)) await createUser(db, { email: demoUser, password: values['demo-password'], roles: ['CUSTOMER', 'DEVELOPER'], firstName: 'Demo', lastName: 'User' });
  }
  if (values['owner-from-parent']) await setOwnerAccount(db, await receiveOwnerCredential());

  const app = await buildApp(ctx);
  // listen() readies the app first, which starts the background work (service/work/plugin.ts).
  const address = await app.listen({ host: config.host, port: config.port }).catch(async (err: unknown) => {
    await app.close();
    throw err;
  });
  baseUrl = address.replace('localhost', '127.0.0.1');
  process.stdout.write(`listening ${baseUrl}\n`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    ctx.log.info('shutting down', { signal });
    // Requests in flight get a moment to finish; a client that keeps its connection busy (the
    // app's own, mid-sync) cannot hold the shutdown past it.
    setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    await app.close(); // also stops the background work (onClose)
    await ctx.offload.close();
    db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  if (values['owner-from-parent']) watchParent(parent, () => void shutdown('parent gone'));
}

