import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Keys derived from the service secret (DATA/secret.key) for one purpose each, so a key used to
 * seal TOTP secrets never doubles as the key that hashes API tokens.
 */
function subKey(secret: Uint8Array, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `s2t-local/${purpose}`, 32));
}

/** Keyed hash for high-entropy secrets (API tokens, backup codes): a stolen database alone cannot test guesses. */
export function secretHash(secret: Uint8Array, purpose: 'api-token' | 'backup-code', value: string): Buffer {
  return createHmac('sha256', subKey(secret, purpose)).update(value, 'utf8').digest();
}

export function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** AES-256-GCM: TOTP secrets must be readable by the service, but never sit in the database in the clear. */
export function seal(secret: Uint8Array, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', subKey(secret, 'seal'), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), data.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

export function unseal(secret: Uint8Array, sealed: string): string {
  const [v, iv, data, tag] = sealed.split('.');
  if (v !== 'v1' || !iv || !data || !tag) throw new Error('sealed value has an unknown format');
  const decipher = createDecipheriv('aes-256-gcm', subKey(secret, 'seal'), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

/** A random string from an alphabet without look-alikes, drawn without modulo bias. */
export function randomCode(length: number, alphabet = 'abcdefghjkmnpqrstuvwxyz23456789'): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 256 - (256 % alphabet.length)) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}
