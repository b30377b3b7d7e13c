/** direct_download: a signed, expiring link to a document's body. */
import { buildPath, routes } from '../../common/api';
import type { ServiceContext } from '../context';
import { signToken, verifyToken } from '../net/signed-url';

export const DEFAULT_DOWNLOAD_TTL = 300;

/** Seconds a download_url stays valid: 300, unless S2T_DOWNLOAD_TTL_SECONDS says otherwise (tests shorten it to watch a link expire). */
export function parseDownloadTtl(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_DOWNLOAD_TTL;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`S2T_DOWNLOAD_TTL_SECONDS must be a positive integer (got "${raw}")`);
  return n;
}

let ttl: number | undefined;

/** The configured TTL, read once. The routes read it when they register, so a malformed value stops the service at start. */
export function downloadTtl(): number {
  ttl ??= parseDownloadTtl(process.env.S2T_DOWNLOAD_TTL_SECONDS);
  return ttl;
}

export function downloadLink(ctx: ServiceContext, documentId: string): { url: string; expiresIn: number } {
  const token = signToken(ctx.secret, 'download', documentId, downloadTtl());
  return { url: `${ctx.baseUrl()}${buildPath(routes['documents.download'].path, { token })}`, expiresIn: downloadTtl() };
}

/** The document id a download token was signed for, or null when it is forged or expired. */
export function downloadSubject(ctx: ServiceContext, token: string): string | null {
  return verifyToken(ctx.secret, 'download', token);
}
