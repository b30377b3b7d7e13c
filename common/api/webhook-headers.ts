/**
 * The legacy create's webhook_headers ("Name: value" lines): what a caller may add to its
 * callback. Names compare case-insensitively (HTTP does); the service's own headers and the
 * framing ones are reserved, so a caller can neither forge X-Svc-Session nor break the request.
 */

/** Names the service sets itself or the HTTP layer owns. */
const RESERVED = new Set(['host', 'content-length', 'content-type', 'transfer-encoding', 'connection', 'x-alt-session']);
/** Every X-Svc-* header belongs to the service (session, delivery, event, signature). */
const RESERVED_PREFIX = 'x-svc-';
const LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([^\r\n]*)$/;

export function reservedWebhookHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return RESERVED.has(lower) || lower.startsWith(RESERVED_PREFIX);
}

/** Splits the lines into headers keyed by lower-case name, or says in words what is wrong with the first bad one. */
export function parseWebhookHeaders(lines: readonly string[]): { headers: Record<string, string> } | { error: string } {
  const headers: Record<string, string> = {};
  for (const [i, line] of lines.entries()) {
    const m = LINE.exec(line);
    if (!m) return { error: `webhook_headers[${i}] must be "Name: value" on one line` };
    const name = m[1].toLowerCase();
    if (reservedWebhookHeader(name)) return { error: `webhook_headers[${i}]: ${m[1]} is set by the service and cannot be given` };
    if (Object.hasOwn(headers, name)) return { error: `webhook_headers[${i}]: ${m[1]} is given twice (names ignore case)` };
    headers[name] = m[2];
  }
  return { headers };
}
