/**
 * URLs the service signs itself (media, waveform, direct document downloads): an expiry and an
 * HMAC over purpose, subject and expiry with the service secret, compared in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignedPurpose = 'media' | 'waveform' | 'download';

function mac(secret: Uint8Array, purpose: SignedPurpose, subject: string, exp: number): string {
  return createHmac('sha256', secret).update(`s2t-signed-url\n${purpose}\n${subject}\n${exp}`).digest('base64url');
}

export function signParams(secret: Uint8Array, purpose: SignedPurpose, subject: string, ttlSec: number): { exp: string; sig: string } {
  const exp = Math.floor(Date.now() / 1000) + ttlSec;
  return { exp: String(exp), sig: mac(secret, purpose, subject, exp) };
}

export function verifySigned(secret: Uint8Array, purpose: SignedPurpose, subject: string, exp: string, sig: string): boolean {
  const e = Number(exp);
  if (!Number.isInteger(e) || e < Date.now() / 1000) return false;
  const want = Buffer.from(mac(secret, purpose, subject, e));
  const got = Buffer.from(sig);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** One opaque token for a path segment: subject.exp.sig (subject must not contain dots). */
export function signToken(secret: Uint8Array, purpose: SignedPurpose, subject: string, ttlSec: number): string {
  const { exp, sig } = signParams(secret, purpose, subject, ttlSec);
  return `${subject}.${exp}.${sig}`;
}

export function verifyToken(secret: Uint8Array, purpose: SignedPurpose, token: string): string | null {
  const [subject, exp, sig, extra] = token.split('.');
  if (!subject || !exp || !sig || extra !== undefined) return null;
  return verifySigned(secret, purpose, subject, exp, sig) ? subject : null;
}
