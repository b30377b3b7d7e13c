/**
 * The tus ownership check and the upload store must see the same upload id. The
 * attack named the caller's own upload in the path and another organization's in a query string
 * (`/tus/<MINE>?x=/<VICTIM>`), which @tus/server read as the victim's id. Also: tus routes count
 * against the rate limiter like every other route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TUS_PATH } from '../../common/api';
import { startService, stopAndRemove, type RunningService } from '../helpers/service';
import { client, otherOrganization, type Client } from '../service/work/helpers';

const LIMIT = 25;
let svc: RunningService;
let me: Client;
let victim: Client;

beforeAll(async () => {
  svc = await startService({ args: ['--rate-limit', String(LIMIT)] });
  me = await client(svc.url);
  victim = await otherOrganization(svc, 'victim@example.com', 'victim-password-1');
}, 120_000);

afterAll(() => stopAndRemove(svc));

const tusHeaders = { 'tus-resumable': '1.0.0' };

async function createUpload(c: Client, length: number): Promise<string> {
  const res = await fetch(`${svc.url}${TUS_PATH}`, { method: 'POST', headers: { ...c.bearer, ...tusHeaders, 'upload-length': String(length) } });
  expect(res.status).toBe(201);
  return new URL(res.headers.get('location')!, svc.url).pathname.split('/').at(-1)!;
}

const head = (c: Client, path: string) => fetch(`${svc.url}${path}`, { method: 'HEAD', headers: { ...c.bearer, ...tusHeaders } });

describe('tus upload ids come from the path alone', () => {
  it("a query string naming another organization's upload reads, writes and deletes nothing of it", async () => {
    const mine = await createUpload(me, 10);
    const theirs = await createUpload(victim, 10);
    const trick = `${TUS_PATH}/${mine}?x=/${theirs}`;

    const peek = await head(me, trick);
    expect(peek.status).toBe(400);
    expect(peek.headers.get('upload-offset')).toBeNull();

    const write = await fetch(`${svc.url}${trick}`, {
      method: 'PATCH',
      headers: { ...me.bearer, ...tusHeaders, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: 'attack!!!!',
    });
    expect(write.status).toBe(400);
    const del = await fetch(`${svc.url}${trick}`, { method: 'DELETE', headers: { ...me.bearer, ...tusHeaders } });
    expect(del.status).toBe(400);

    // The victim's upload is untouched: still there, nothing written.
    const after = await head(victim, `${TUS_PATH}/${theirs}`);
    expect(after.status).toBe(200);
    expect(after.headers.get('upload-offset')).toBe('0');
    // And the direct route still refuses the other organization.
    expect((await head(me, `${TUS_PATH}/${theirs}`)).status).toBe(404);
    // The caller's own upload is still reachable the plain way.
    expect((await head(me, `${TUS_PATH}/${mine}`)).status).toBe(200);
  });

  it('an encoded slash or a second path segment does not reach another upload either', async () => {
    const mine = await createUpload(me, 10);
    const theirs = await createUpload(victim, 10);
    for (const path of [`${TUS_PATH}/${mine}%2F${theirs}`, `${TUS_PATH}/${mine}/${theirs}`]) {
      const res = await head(me, path);
      expect(res.status, path).toBe(404);
    }
    expect((await head(victim, `${TUS_PATH}/${theirs}`)).headers.get('upload-offset')).toBe('0');
  });

  it('tus routes are rate limited per credential like every other route', async () => {
    const fresh = await client(svc.url);
    const id = await createUpload(fresh, 10);
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < LIMIT + 2; i++) {
      last = await head(fresh, `${TUS_PATH}/${id}`);
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.at(-1)).toBe(429);
    expect(last!.headers.get('retry-after')).toBeTruthy();
    expect(last!.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
  });
});
