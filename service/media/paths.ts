/** Where media lives under the data dir. Names are ours (ids), never client-supplied. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export function sessionMediaDir(dataDir: string, sessionId: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(sessionId)) throw new Error('bad session id');
  const dir = join(dataDir, 'media', sessionId);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

export function uploadsDir(dataDir: string): string {
  const dir = join(dataDir, 'uploads');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

export function tusDir(dataDir: string): string {
  const dir = join(dataDir, 'tus');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** A display name from a client: no directories, no control characters, bounded length. */
export function sanitizeFilename(name: string | undefined, fallback = 'media'): string {
  let decoded = name ?? '';
  try {
    decoded = decodeURIComponent(decoded);
  } catch {
    /* keep as sent */
  }
  const base = decoded.split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').replace(/^\.+/, '').trim().slice(0, 200);
  return clean || fallback;
}
