/**
 * The local speech-to-text service.
 *   npm run service -- [--port 0] [--data DIR] [--demo-user EMAIL --demo-password PW] [--allow-private-webhooks]
 *                      [--rate-limit N] [--rate-window-seconds S] [--engine-concurrency N] [--quiet]
 * Prints `listening http://127.0.0.1:PORT` as its first line once it accepts requests.
 * The demo account (--demo-user/--demo-password) is for `npm run service` and tests; the app's
 * embedded service runs with --owner-from-parent instead (service/parent-channel.ts).
 *
 *   npm run service -- user add EMAIL --password-stdin --role ROLE [--role ROLE...] --data DIR
 *                      [--org-of EMAIL] [--customer-of EMAIL] [--identity-provider microsoft]
 * Adds a user (also while the service runs on the same data dir: SQLite WAL + busy_timeout).
 *
 *   npm run service -- --queue redis://HOST:PORT   the API node of a team server (engines run on workers)
 *   npm run service -- worker add NAME --data DIR  adds a worker (or replaces its key); prints the key alone on its last line
 *   npm run service -- models list|download NAME|import PATH|delete NAME --data DIR
 * Manages the speech models (service/speech-models/cli.ts).
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Role } from '../common/api';
import { SSO_PROVIDER } from './auth/sso';
import { createOrganization, createUser, findUserByEmail } from './auth/users';
import { openDb } from './db';
import { migrations } from './migrations';
import { addWorker } from './queue/worker-keys';
import { serve } from './server';
import { modelsCommand } from './speech-models/cli';

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

/** `worker add NAME --data DIR`: the key goes to S2T_WORKER_KEY of `npm run worker` on the worker's machine. */
function workerAdd(argv: string[]): void {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { data: { type: 'string', default: '.data/service' } }, strict: true });
  if (positionals.length !== 1) throw new Error('usage: worker add NAME --data DIR');
  const dataDir = resolve(values.data!);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = openDb(join(dataDir, 'service.db'), migrations);
  try {
    const key = addWorker(db, positionals[0]);
    process.stdout.write(`worker ${positionals[0]}: its key (shown once; a new \`worker add\` replaces it):\n${key}\n`);
  } finally {
    db.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command] = argv;
  if (command === 'serve') return serve(argv.slice(1));
  if (command === 'user' && argv[1] === 'add') return userAdd(argv.slice(2));
  if (command === 'worker' && argv[1] === 'add') return workerAdd(argv.slice(2));
  if (command === 'models') return modelsCommand(argv.slice(1));
  if (command && !command.startsWith('-')) throw new Error(`unknown command "${command}" (commands: serve, user add, worker add, models)`);
  return serve(argv);
}

main(process.argv.slice(2)).catch((err: Error) => {
  process.stderr.write(`s2t-service: ${err.message}\n`);
  process.exit(1);
});
