import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Verifies an X-Svc-Signature header: the hex HMAC-SHA256 of the raw payload keyed with the
 * webhook secret. Compares in constant time; a header of the wrong length or not hex is false.
 * A `sha256=` prefix is accepted, as several senders add one.
 */
export function verifySignature(rawBody: Uint8Array | string, header: string | null | undefined, secret: string): boolean {
  if (!header || !secret) return false;
  const hex = header.trim().replace(/^sha256=/i, '');
  if (!/^[0-9a-f]{64}$/i.test(hex)) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(hex, 'hex'));
}

/** The header value a sender would compute; used by tests and the local webhook sender's peers. */
export function signPayload(rawBody: Uint8Array | string, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}
