/**
 * Durable webhook deliveries: rows written in the same transaction as the job outcome, sent by a
 * worker that survives restarts (pending rows are picked up again), retried on a fixed schedule,
 * each with a delivery id for the receiver to deduplicate (a retry after a lost answer repeats it).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { parseWebhookHeaders, type WebhookPayload } from '../../common/api';
import { seal, unseal } from '../auth/secrets';
import type { ServiceContext } from '../context';
import type { Db } from '../db';
import { guardedFetch, webhookPolicy } from '../net/ssrf';

/** Seconds to wait after failed attempt n (1-based); after the last one the delivery is given up. */
export const RETRY_SCHEDULE_SEC = [2, 10, 60, 300, 1800, 7200];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_SEC.length + 1;
/** The spec's legacy callback timeout; the newer callback uses the same. */
export const DELIVERY_TIMEOUT_MS = 20_000;

export function signBody(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

function insert(db: Db, secret: Uint8Array, d: { id: string; kind: 'legacy' | 'signed'; url: string; method: string; headers: Record<string, string>; body: string }): void {
  db.prepare(
    "INSERT INTO webhook_deliveries (delivery_id, kind, url, method, headers, body, status, attempts, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)",
  ).run(d.id, d.kind, d.url, d.method, seal(secret, JSON.stringify(d.headers)), d.body, Date.now(), new Date().toISOString());
}

/**
 * The caller's webhook_headers, lower-cased; a bad or reserved line is dropped (the create refuses
 * them, so only rows stored before that check have any). The service's own headers are added
 * after these, under the same lower-case names, so theirs can never win.
 */
export function parseHeaderLines(lines: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const parsed = parseWebhookHeaders([line]);
    if ('headers' in parsed) Object.assign(out, parsed.headers);
  }
  return out;
}

/**
 * Legacy callback: success only, no results in the body, X-Svc-Session and X-Alt-Session. The
 * create's meta_data comes back in the body, so a receiver can match the callback to its own record.
 */
export function enqueueLegacy(db: Db, secret: Uint8Array, s: { url: string; method: string; headerLines: string[]; sessionId: string; metaData?: Record<string, string> }): string {
  const id = randomUUID();
  const body = JSON.stringify({ session_id: s.sessionId, status: 'completed', ...(s.metaData ? { meta_data: s.metaData } : {}) });
  insert(db, secret, {
    id,
    kind: 'legacy',
    url: s.url,
    method: s.method,
    body,
    headers: { ...parseHeaderLines(s.headerLines), 'x-svc-session': s.sessionId, 'x-alt-session': s.sessionId, 'content-type': 'application/json', 'x-svc-delivery': id },
  });
  return id;
}

/** Newer callback: the documented payload, signed with the job's webhook_secret. */
export function enqueueSigned(db: Db, secret: Uint8Array, j: { url: string; webhookSecret: string | null; payload: Omit<WebhookPayload, 'delivery_id' | 'occurred_at'> }): string {
  const id = randomUUID();
  const payload: WebhookPayload = { delivery_id: id, ...j.payload, occurred_at: new Date().toISOString() };
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Svc-Delivery': id, 'X-Svc-Event': payload.event };
  if (j.webhookSecret) headers['X-Svc-Signature'] = signBody(j.webhookSecret, body);
  insert(db, secret, { id, kind: 'signed', url: j.url, method: 'POST', headers, body });
  return id;
}

interface DeliveryRow {
  delivery_id: string;
  kind: 'legacy' | 'signed';
  url: string;
  method: string;
  headers: string;
  body: string;
  attempts: number;
}

export class DeliveryWorker {
  private timer: NodeJS.Timeout | null = null;
  private inFlight = new Set<string>();
  private stopped = false;
  private readonly timeoutMs: number;
  private readonly scheduleSec: readonly number[];

  constructor(private ctx: ServiceContext) {
    // Tests shorten these through the service's construction (ServiceTuning); users cannot.
    this.timeoutMs = ctx.tuning?.webhooks?.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.scheduleSec = ctx.tuning?.webhooks?.retryScheduleSec ?? RETRY_SCHEDULE_SEC;
  }

  start(): void {
    this.timer = setInterval(() => this.tick(), 500);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
  }

  tick(): void {
    if (this.stopped) return;
    const due = this.ctx.db
      .prepare("SELECT delivery_id, kind, url, method, headers, body, attempts FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT 20")
      .all(Date.now()) as DeliveryRow[];
    for (const d of due) {
      if (this.inFlight.has(d.delivery_id) || this.inFlight.size >= 8) continue;
      this.inFlight.add(d.delivery_id);
      void this.send(d).finally(() => this.inFlight.delete(d.delivery_id));
    }
  }

  private async send(d: DeliveryRow): Promise<void> {
    let error: string | null = null;
    try {
      const res = await guardedFetch(d.url, {
        method: d.method,
        headers: JSON.parse(unseal(this.ctx.secret, d.headers)) as Record<string, string>,
        body: d.body,
        timeoutMs: this.timeoutMs,
        maxBytes: 64 * 1024,
        maxRedirects: 0,
        // Checked again at every attempt: the name may resolve elsewhere now than at create time.
        policy: webhookPolicy(this.ctx.config.allowPrivateWebhooks, d.kind === 'legacy', this.ctx.tuning?.outbound),
      });
      if (res.status < 200 || res.status >= 300) error = `receiver answered ${res.status}`;
    } catch (e) {
      error = (e as Error).message;
    }
    if (this.stopped) return;
    const attempts = d.attempts + 1;
    if (!error) {
      this.ctx.db.prepare("UPDATE webhook_deliveries SET status = 'delivered', attempts = ?, delivered_at = ?, last_error = NULL WHERE delivery_id = ?").run(attempts, new Date().toISOString(), d.delivery_id);
      return;
    }
    const gaveUp = attempts > this.scheduleSec.length;
    this.ctx.db
      .prepare('UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_error = ? WHERE delivery_id = ?')
      .run(gaveUp ? 'failed' : 'pending', attempts, Date.now() + (this.scheduleSec[attempts - 1] ?? 0) * 1000, error, d.delivery_id);
    this.ctx.log.warn('webhook delivery failed', { delivery_id: d.delivery_id, attempt: attempts, gave_up: gaveUp, error });
  }
}
