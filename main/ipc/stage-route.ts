/**
 * The web bridge's stage route (browser mode's stageFile): a file the user picked or dropped is
 * streamed from the request body to a file under the data dir (never whole in memory), and named
 * by a random staged id that imports.add takes. Only a request with a session the admit route gave in its
 * header gets through (the header also forces a CORS preflight, which nothing here answers, so
 * no other page can send one); the bridge checks Host before it hands a request here.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { STAGE_TOKEN_HEADER } from '../../common/ipc';
import { newStagedId, stagedDir, stagedPath } from '../imports/staging';

/** The largest file one stage request may carry. */
export const MAX_STAGED_BYTES = 20 * 1024 ** 3;

const StageQuery = z.object({ name: z.string().min(1).max(255), size: z.coerce.number().int().min(0).max(MAX_STAGED_BYTES) });

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

/** Answers a request for the stage route (the bridge routes by path, and only with a data dir). */
export function serveStageRoute(req: IncomingMessage, res: ServerResponse, url: URL, dataDir: string, sessionOk: (presented: string) => boolean): void {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const presented = req.headers[STAGE_TOKEN_HEADER];
  if (typeof presented !== 'string' || !sessionOk(presented)) {
    req.resume();
    answer(res, 401, { error: 'this request needs a page opened from an address S2T Desktop printed' });
    return;
  }
  const query = StageQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!query.success) {
    req.resume();
    answer(res, 400, { error: 'name and size are required (size at most 20 GiB)' });
    return;
  }
  void receive(req, res, dataDir, query.data.size).catch(() => res.destroy());
}

async function receive(req: IncomingMessage, res: ServerResponse, dataDir: string, size: number): Promise<void> {
  const stagedId = newStagedId();
  const target = stagedPath(dataDir, stagedId);
  const part = `${target}.part`;
  await mkdir(stagedDir(dataDir), { recursive: true, mode: 0o700 });
  let received = 0;
  // Stops at the declared size: a body longer than it said is refused, not stored.
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      done(received > size ? new Error('the body is longer than its declared size') : null, chunk);
    },
  });
  try {
    await pipeline(req, count, createWriteStream(part, { mode: 0o600 }));
    if (received !== size) throw new Error(`the body ended after ${received} of ${size} bytes`);
    await rename(part, target);
  } catch (err) {
    await rm(part, { force: true }).catch(() => {});
    if (!res.headersSent) answer(res, 400, { error: (err as Error).message });
    req.resume();
    return;
  }
  answer(res, 201, { stagedId });
}
