/**
 * The local speech-to-text service.
 *   npm run service -- [--port 0] [--data DIR] [--demo-user EMAIL --demo-password PW] [--allow-private-webhooks]
 * Prints `listening http://127.0.0.1:PORT` as its first line once it accepts requests.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from './app';
import { createUser, findUserByEmail } from './auth/users';
import { stderrLogger, type ServiceConfig, type ServiceContext } from './context';
import { openDb } from './db';
import { migrations } from './migrations';

function loadSecret(dataDir: string): Uint8Array {
  const file = join(dataDir, 'secret.key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32), { mode: 0o600 });
  chmodSync(file, 0o600);
  return new Uint8Array(readFileSync(file));
}

export async function serve(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '0' },
      data: { type: 'string', default: '.data/service' },
      'demo-user': { type: 'string' },
      'demo-password': { type: 'string' },
      'allow-private-webhooks': { type: 'boolean', default: false },
      'rate-limit': { type: 'string', default: '6000' },
      'engine-concurrency': { type: 'string', default: '1' },
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
    rateLimit: { max: Number(values['rate-limit']), windowMs: 60_000 },
    engineConcurrency: Math.max(1, Number(values['engine-concurrency'])),
    bodyLimitBytes: 16 * 1024 * 1024,
  };
  const db = openDb(join(dataDir, 'service.db'), migrations);
  let baseUrl = '';
  const ctx: ServiceContext = { db, config, log: stderrLogger(values.quiet), secret: loadSecret(dataDir), baseUrl: () => baseUrl };

  const demoUser = values['demo-user'];
  if (demoUser) {
    if (!values['demo-password']) throw new Error('--demo-user needs --demo-password');
    if (!findUserByEmail(db, demoUser)) await createUser(db, { email: demoUser, password: values['demo-password'], roles: ['CUSTOMER', 'DEVELOPER'], firstName: 'Demo', lastName: 'User' });
  }

  const app = await buildApp(ctx);
  const address = await app.listen({ host: config.host, port: config.port });
  baseUrl = address.replace('localhost', '127.0.0.1');
  process.stdout.write(`listening ${baseUrl}\n`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    ctx.log.info('shutting down', { signal });
    await app.close();
    db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

async function main(argv: string[]): Promise<void> {
  const [command] = argv;
  if (command === 'serve') return serve(argv.slice(1));
  if (command && !command.startsWith('-')) throw new Error(`unknown command "${command}" (commands: serve, user add)`);
  return serve(argv);
}

main(process.argv.slice(2)).catch((err: Error) => {
  process.stderr.write(`s2t-service: ${err.message}\n`);
  process.exit(1);
});
