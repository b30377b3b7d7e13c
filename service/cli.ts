/**
 * The local speech-to-text service.
 *   npm run service -- [--port 0] [--data DIR] [--demo-user EMAIL --demo-password PW] [--allow-private-webhooks]
 *                      [--rate-limit N] [--rate-window-seconds S]
 * Prints `listening http://127.0.0.1:PORT` as its first line once it accepts requests.
 *
 *   npm run service -- user add EMAIL --password-stdin --role ROLE [--role ROLE...] --data DIR
 *                      [--org-of EMAIL] [--customer-of EMAIL] [--identity-provider microsoft]
 * Adds a user (also while the service runs on the same data dir: SQLite WAL + busy_timeout).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from './app';
import { Role } from '../common/api';
import { SSO_PROVIDER } from './auth/sso';
import { createOrganization, createUser, findUserByEmail } from './auth/users';
import { stderrLogger, type ServiceConfig, type ServiceContext } from './context';
import { openDb } from './db';
import { migrations } from './migrations';
import { startWork, stopWork } from './work-routes';

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

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/** `user add EMAIL --password-stdin --role ROLE ... --data DIR`: prints `user ID EMAIL org ORGID`. */
async function userAdd(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      data: { type: 'string', default: '.data/service' },
      'password-stdin': { type: 'boolean', default: false },
      role: { type: 'string', multiple: true },
      'org-of': { type: 'string' },
      'customer-of': { type: 'string' },
      'identity-provider': { type: 'string', default: 'local' },
      'first-name': { type: 'string', default: '' },
      'last-name': { type: 'string', default: '' },
    },
    strict: true,
  });
  const [email] = positionals;
  if (!email || positionals.length !== 1 || !/^[^\s@]+@[^\s@]+$/.test(email)) throw new Error('usage: user add EMAIL --password-stdin --role ROLE [--role ROLE...] --data DIR');
  if (!values['password-stdin']) throw new Error('--password-stdin is required (a password never goes on the command line)');
  const roles = Role.array().min(1).safeParse(values.role ?? []);
  if (!roles.success) throw new Error(`--role must be given, each one of ${Role.options.join(', ')}`);
  const provider = values['identity-provider']!;
  if (provider !== 'local' && provider !== SSO_PROVIDER) throw new Error(`--identity-provider must be local or ${SSO_PROVIDER}`);
  if (values['org-of'] && values['customer-of']) throw new Error('--org-of and --customer-of exclude each other');
  const password = await readStdin();
  if (password.length < 8) throw new Error('the password must have at least 8 characters');

  const dataDir = resolve(values.data!);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = openDb(join(dataDir, 'service.db'), migrations);
  try {
    if (findUserByEmail(db, email)) throw new Error(`a user ${email} exists already`);
    const orgOwner = (flag: string, other: string) => {
      const u = findUserByEmail(db, other);
      if (!u) throw new Error(`${flag}: no user ${other}`);
      return u.org_id;
    };
    let orgId = values['org-of'] ? orgOwner('--org-of', values['org-of']) : undefined;
    if (values['customer-of']) {
      const reseller = orgOwner('--customer-of', values['customer-of']);
      orgId = createOrganization(db, `${email}'s organization`);
      db.prepare('UPDATE organizations SET reseller_org_id = ? WHERE id = ?').run(reseller, orgId);
    }
    const user = await createUser(db, { email, password, roles: roles.data, orgId, identityProvider: provider, firstName: values['first-name'], lastName: values['last-name'] });
    process.stdout.write(`user ${user.id} ${user.email} org ${user.org_id}\n`);
  } finally {
    db.close();
  }
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
      'rate-window-seconds': { type: 'string', default: '60' },
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
    rateLimit: { max: positiveInt('--rate-limit', values['rate-limit']!), windowMs: positiveInt('--rate-window-seconds', values['rate-window-seconds']!) * 1000 },
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
  startWork(ctx);
  process.stdout.write(`listening ${baseUrl}\n`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    ctx.log.info('shutting down', { signal });
    await stopWork(ctx);
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
  if (command === 'user' && argv[1] === 'add') return userAdd(argv.slice(2));
  if (command && !command.startsWith('-')) throw new Error(`unknown command "${command}" (commands: serve, user add)`);
  return serve(argv);
}

main(process.argv.slice(2)).catch((err: Error) => {
  process.stderr.write(`s2t-service: ${err.message}\n`);
  process.exit(1);
});
