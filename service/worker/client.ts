/**
 * A worker's calls to the API node (service/queue/worker-routes.ts), answers checked with zod.
 * A call the API node cannot answer (down, restarting, 5xx) is tried again with backoff until its
 * deadline, so an API node restarted mid-job loses no result; a refused lease (409) is final.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { z } from 'zod';
import { WORKER_PREFIX } from '../queue/protocol';

type Body = NonNullable<RequestInit['body']>;

/** The API node no longer lets this lease hold the job (cancelled, finished, taken over). */
export class LeaseRefused extends Error {}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class ServiceClient {
  constructor(
    private readonly base: string,
    private readonly key: string,
  ) {}

  private async send(method: string, path: string, init: { body?: () => Body; type?: string; length?: number; deadlineMs: number }): Promise<Response> {
    const until = Date.now() + init.deadlineMs;
    for (let wait = 250; ; wait = Math.min(wait * 2, 5000)) {
      let res: Response | null = null;
      let failure = '';
      try {
        const headers: Record<string, string> = { authorization: `Worker ${this.key}` };
        if (init.type) headers['content-type'] = init.type;
        if (init.length !== undefined) headers['content-length'] = String(init.length);
        res = await fetch(`${this.base}${WORKER_PREFIX}${path}`, { method, headers, body: init.body?.(), duplex: 'half', signal: AbortSignal.timeout(120_000) } as RequestInit);
      } catch (e) {
        failure = (e as Error).message;
      }
      if (res && res.status === 409) throw new LeaseRefused(await res.text());
      if (res && res.status < 500) {
        if (res.ok) return res;
        throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      }
      if (res) failure = `${res.status} ${await res.text().catch(() => '')}`;
      if (Date.now() + wait > until) throw new Error(`${method} ${path}: the service did not answer (${failure})`);
      await sleep(wait);
    }
  }

  async json<S extends z.ZodType>(path: string, body: unknown, schema: S, deadlineMs = 600_000): Promise<z.infer<S>> {
    const res = await this.send('POST', path, { body: () => JSON.stringify(body), type: 'application/json', deadlineMs });
    return schema.parse(await res.json());
  }

  async download(path: string, dest: string): Promise<void> {
    const res = await this.send('GET', path, { deadlineMs: 120_000 });
    if (!res.body) throw new Error(`GET ${path}: no body`);
    await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), createWriteStream(dest, { mode: 0o600 }));
  }

  async upload(path: string, file: string): Promise<void> {
    const { size } = await stat(file);
    // A fresh stream for each try: send() may try again.
    const body = () => Readable.toWeb(createReadStream(file)) as unknown as Body;
    await this.send('PUT', path, { body, type: 'application/octet-stream', length: size, deadlineMs: 120_000 });
  }
}
