/**
 * The storage quota: each organization keeps at most --org-storage-gb of media and uploads on
 * this service's disk. What it uses is measured from the files themselves (sessions' media, kept
 * copies and waveforms, uploads; a tus upload still arriving counts its declared length), so a
 * deletion frees room at once and nothing can drift from a counter.
 */
import { stat } from 'node:fs/promises';
import type { ServiceContext } from '../context';
import { codedError } from '../http/errors';

const gb = (bytes: number) => (bytes >= 1024 ** 3 ? `${+(bytes / 1024 ** 3).toFixed(2)} GB` : bytes >= 1024 ** 2 ? `${+(bytes / 1024 ** 2).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`);

/** Bytes the organization's files take now. */
export async function storageUsed(ctx: ServiceContext, orgId: number): Promise<number> {
  const files = ctx.db
    .prepare(
      `SELECT media_path AS path FROM sessions WHERE org_id = @org AND media_path IS NOT NULL
       UNION SELECT kept_path FROM sessions WHERE org_id = @org AND kept_path IS NOT NULL
       UNION SELECT waveform_path FROM sessions WHERE org_id = @org AND waveform_path IS NOT NULL
       UNION SELECT path FROM uploads WHERE org_id = @org AND complete = 1`,
    )
    .all({ org: orgId }) as { path: string }[];
  const arriving = (ctx.db.prepare('SELECT COALESCE(SUM(size_bytes), 0) AS n FROM uploads WHERE org_id = ? AND complete = 0').get(orgId) as { n: number }).n;
  const sizes = await Promise.all(files.map((f) => stat(f.path).then((s) => s.size, () => 0)));
  return sizes.reduce((a, b) => a + b, arriving);
}

export function storageFullError(ctx: ServiceContext, used: number, adding?: number): Error {
  const limit = ctx.config.quota.storageBytes;
  const what = adding === undefined ? 'this upload would pass' : `this upload of ${gb(adding)} would pass`;
  return codedError(413, 'storage_quota_exceeded', `Your organization stores ${gb(used)} on this service, and ${what} its limit of ${gb(limit)} (--org-storage-gb). Delete sessions you no longer need, or ask the administrator to raise the limit.`, {
    used_bytes: used,
    limit_bytes: limit,
  });
}

/** Bytes the organization may still store; refuses (413) when there is no room at all. */
export async function storageRoom(ctx: ServiceContext, orgId: number): Promise<{ room: number; full: () => Error }> {
  const used = await storageUsed(ctx, orgId);
  const room = ctx.config.quota.storageBytes - used;
  const full = () => storageFullError(ctx, used);
  if (room <= 0) throw full();
  return { room, full };
}
