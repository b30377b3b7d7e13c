/** --queue: the Redis of a team server's job queue (redis:// or rediss://), for the API node and its workers alike. */
export function parseQueueUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || !/^rediss?:$/.test(url.protocol)) throw new Error(`--queue must be a redis:// or rediss:// URL of the queue server (got "${raw}")`);
  return raw;
}
