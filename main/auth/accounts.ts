/**
 * The accounts the app knows: "This computer" (the embedded service, when the app runs one) and
 * any number of services by URL, each with its own data folder (cache, watch folders, media),
 * and which one is active. Kept in accounts.json in the data dir: addresses and e-mail
 * addresses only; tokens stay in the secret store, keyed by service URL.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ErrorBody, routes } from '../../common/api';
import { issueText } from '../../node/zod-issues';
import { UserFacingError } from '../ipc/user-facing-error';

export const LOCAL_ID = 'local';
const FILE = 'accounts.json';

const Stored = z.object({
  active: z.string(),
  cloud: z.array(z.object({ id: z.string().regex(/^[a-f0-9]{16}$/), serviceUrl: z.string(), email: z.string().nullable().default(null) })).default([]),
  localEmail: z.string().nullable().default(null),
});
type Stored = z.output<typeof Stored>;

export interface Account {
  id: string;
  kind: 'local' | 'cloud';
  serviceUrl: string | null;
  /** Who last signed in there, for the switcher; null before anyone did. */
  email: string | null;
}

/** The id of a service URL: the same address always lands in the same folder. */
export const accountId = (serviceUrl: string) => createHash('sha256').update(serviceUrl).digest('hex').slice(0, 16);

/** Where an account keeps its cache and watch folders: the data dir itself for the first account (as before accounts), a folder per added service. */
export const accountDataDir = (dataDir: string, id: string) => (id === LOCAL_ID ? dataDir : join(dataDir, 'accounts', id));

export class AccountBook {
  private stored: Stored;

  constructor(private readonly dataDir: string) {
    const file = join(dataDir, FILE);
    if (!existsSync(file)) this.stored = { active: LOCAL_ID, cloud: [], localEmail: null };
    else {
      const parsed = Stored.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (!parsed.success) throw new Error(`${file}: ${issueText(parsed.error)}`);
      this.stored = parsed.data;
    }
  }

  list(): Account[] {
    return [
      { id: LOCAL_ID, kind: 'local', serviceUrl: null, email: this.stored.localEmail },
      ...this.stored.cloud.map((c) => ({ id: c.id, kind: 'cloud' as const, serviceUrl: c.serviceUrl, email: c.email })),
    ];
  }

  get active(): string {
    return this.stored.active;
  }

  find(id: string): Account | undefined {
    return this.list().find((a) => a.id === id);
  }

  /** Adds the service (once) and answers its account. */
  add(serviceUrl: string): Account {
    const id = accountId(serviceUrl);
    if (!this.stored.cloud.some((c) => c.id === id)) this.stored.cloud.push({ id, serviceUrl, email: null });
    this.save();
    return this.find(id)!;
  }

  setActive(id: string): void {
    this.stored.active = id;
    this.save();
  }

  rememberEmail(id: string, email: string): void {
    if (id === LOCAL_ID) this.stored.localEmail = email;
    else for (const c of this.stored.cloud) if (c.id === id) c.email = email;
    this.save();
  }

  private save(): void {
    const file = join(this.dataDir, FILE);
    writeFileSync(`${file}.tmp`, JSON.stringify(this.stored, null, 2), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  }
}

/** A service address as typed, made canonical, or why it is not one. */
export function normalizeServiceUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new UserFacingError('BAD_SERVICE_URL', `"${input.slice(0, 200)}" is not a web address. Type it in full, for example https://s2t.example.com.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UserFacingError('BAD_SERVICE_URL', 'The service address must start with https:// (or http:// for one on this computer or network).');
  if (url.username || url.password || url.search || url.hash) throw new UserFacingError('BAD_SERVICE_URL', 'Type the service address without a name, password, query or # part.');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * Whether the address answers as the interface does before anyone types a password there: the
 * current-user route without credentials must be 401 with the interface's error body. A web page,
 * a different API or nothing at all each get a sentence saying so.
 */
export async function checkService(serviceUrl: string, timeoutMs = 10_000): Promise<void> {
  let res: Response;
  try {
    res = await fetch(`${serviceUrl}${routes['account.me'].path}`, { headers: { accept: 'application/json' }, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new UserFacingError('SERVICE_UNREACHABLE', `Nothing answers at ${serviceUrl} (${(err as Error).message}). Check the address and your connection.`);
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: worded below
  }
  if (res.status !== 401 || !ErrorBody.safeParse(body).success) {
    throw new UserFacingError('NOT_A_SERVICE', `${serviceUrl} answers, but not as a speech-to-text service does (HTTP ${res.status}). Check the address: it is the service's own, not its website's.`);
  }
}
