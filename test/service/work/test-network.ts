/**
 * For tests that run the service on a test network (fixtures/serve-with-test-network.ts): a fake
 * DNS (a hosts file), the exempt address our servers listen on, a self-signed certificate for https
 * receivers, a scriptable webhook receiver, and the status history from the service's SQLite file.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startService, tempDir, type RunningService } from '../../helpers/service';
import { readServiceDb } from '../../helpers/service-db';

/** Where the tests' own servers listen: loopback, so refused by the guard unless exempted. */
export const TEST_ADDRESS = '127.0.0.2';

/** A fake DNS: names the service resolves through the hosts file this writes (atomically, re-read at every lookup). */
export class FakeDns {
  readonly file: string;
  private names: Record<string, string[]> = {};

  constructor(dir: string) {
    this.file = join(dir, 'hosts.json');
    this.save();
  }

  set(name: string, ...addresses: string[]): void {
    this.names[name.toLowerCase()] = addresses;
    this.save();
  }

  private save(): void {
    writeFileSync(`${this.file}.tmp`, JSON.stringify(this.names));
    renameSync(`${this.file}.tmp`, this.file);
  }
}

/** A self-signed certificate for the given names (openssl), which the test service is told to trust. */
export function selfSignedCertificate(dir: string, names: string[]): { key: string; cert: string; certFile: string } {
  const keyFile = join(dir, 'receiver.key');
  const certFile = join(dir, 'receiver.crt');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', `/CN=${names[0]}`,
    '-addext', `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`, '-keyout', keyFile, '-out', certFile], { stdio: 'ignore' });
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

export interface TestNetworkOptions {
  dns: FakeDns;
  dataDir?: string;
  caFile?: string;
  webhookTimeoutMs?: number;
  webhookRetryScheduleSec?: number[];
  args?: string[];
}

/** Starts the real service through the test-network entry script, as a child process (so kill -9 is real). */
export async function startTestNetworkService(opts: TestNetworkOptions): Promise<RunningService> {
  const settings = { hostsFile: opts.dns.file, exemptAddresses: [TEST_ADDRESS], caFile: opts.caFile, webhookTimeoutMs: opts.webhookTimeoutMs, webhookRetryScheduleSec: opts.webhookRetryScheduleSec };
  return startService({
    entry: 'test/service/work/fixtures/serve-with-test-network.ts',
    dataDir: opts.dataDir ?? tempDir('s2t-svc-net-'),
    args: opts.args,
    env: { S2T_TEST_NETWORK: JSON.stringify(settings) },
  });
}

/** Listens on TEST_ADDRESS; returns the port. */
export async function listenOnTestAddress(server: Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, TEST_ADDRESS, r));
  return (server.address() as AddressInfo).port;
}

export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
}

export interface Hit {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When the request arrived, and when its connection closed (ms since epoch). */
  at: number;
  closedAt?: number;
  answered: number | 'hang';
}

/**
 * A webhook receiver (http or https) that records every request and answers from a per-path
 * script: a status, or 'hang' (never answer); once the script is used up, 200.
 */
export class Receiver {
  readonly hits: Hit[] = [];
  private scripts = new Map<string, (number | 'hang')[]>();
  readonly server: Server;
  port = 0;

  constructor(tls?: { key: string; cert: string }) {
    const onRequest = (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (d: Buffer) => chunks.push(d));
      req.on('end', () => {
        const path = req.url ?? '';
        const answer = this.scripts.get(path)?.shift() ?? 200;
        const hit: Hit = { path, method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), answered: answer };
        this.hits.push(hit);
        req.socket.once('close', () => (hit.closedAt = Date.now()));
        if (answer !== 'hang') res.writeHead(answer).end();
      });
    };
    this.server = tls ? createHttpsServer(tls, onRequest) : createHttpServer(onRequest);
  }

  async listen(): Promise<this> {
    this.port = await listenOnTestAddress(this.server);
    return this;
  }

  script(path: string, ...answers: (number | 'hang')[]): void {
    this.scripts.set(path, answers);
  }

  on(path: string): Hit[] {
    return this.hits.filter((h) => h.path === path);
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }
}

/** Status history of a session (by session_id) or job, as "from>to" strings, from the transitions table. */
export function transitionsOf(dataDir: string, entity: 'session' | 'job', publicId: string): { step: string; reason: string; at: string }[] {
  return readServiceDb(dataDir, (db) => {
    const id = entity === 'session' ? String((db.prepare('SELECT id FROM sessions WHERE session_id = ?').get(publicId) as { id: number }).id) : publicId;
    return db
      .prepare("SELECT COALESCE(from_status, '') || '>' || to_status AS step, reason, at FROM transitions WHERE entity = ? AND entity_id = ? ORDER BY id")
      .all(entity, id) as { step: string; reason: string; at: string }[];
  });
}
