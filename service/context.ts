import type { SmtpConfig } from './mail/send';
import type { Db } from './db';
import type { SpeechEngines } from './engines/registry';
import type { TrustProxy } from './http/trust-proxy';
import type { OutboundNetwork } from './net/ssrf';
import type { OffloadPool } from './offload/pool';
import type { CatalogEntry } from './speech-models/catalog';
import type { ModelDownloads } from './speech-models/download';

export interface ServiceConfig {
  host: '127.0.0.1';
  port: number;
  dataDir: string;
  /** For tests only: allows http and loopback webhook receivers. Never loosens media_source. */
  allowPrivateWebhooks: boolean;
  /** Requests per window per credential; generous by default. */
  rateLimit: { max: number; windowMs: number };
  /** A team server's queue (--queue redis://…): engine jobs run on its workers, not in this process. */
  queueUrl?: string;
  /** Engine jobs run at once. */
  engineConcurrency: number;
  /** Largest JSON or form body accepted (media goes through the upload routes). */
  bodyLimitBytes: number;
  /** Longest media a job converts (--max-media-hours); longer media fails before conversion. */
  maxMediaSeconds: number;
  /**
   * Per organization: bytes of stored media and uploads (--org-storage-gb), and seconds of media
   * processed per calendar month, UTC (--org-processing-hours).
   */
  quota: { storageBytes: number; processingSecondsPerMonth: number };
  /** SSO redirect_uri values allowed besides loopback (--sso-redirect-uri, exact origin and path). */
  ssoRedirectUris: string[];
  /** The address recipients of a magic link open (--public-url or S2T_PUBLIC_URL, e.g. a reverse proxy); unset: the listen address. */
  publicUrl?: string;
  /** The mail server share e-mails go through (--smtp-url or S2T_SMTP_URL); unset: they are saved as drafts. */
  smtp?: SmtpConfig;
  /** Reverse proxies whose X-Forwarded-For names the client (--trust-proxy: a hop count or addresses); unset: none, the peer is the client. */
  trustProxy?: TrustProxy;
}

export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** What every route and worker of the service shares. */
export interface ServiceContext {
  db: Db;
  config: ServiceConfig;
  log: Logger;
  /** HMAC key for JWTs and signed URLs; lives in DATA/secret.key (0600), never logged. */
  secret: Uint8Array;
  /** Threads for heavy pure work (summaries, merges, exports, alignment), off the event loop. */
  offload: OffloadPool;
  /** The address clients reach us at, e.g. http://127.0.0.1:PORT (known once listening). */
  baseUrl(): string;
  /** Test seams; absent in production (see ServiceTuning). */
  tuning?: ServiceTuning;
  /** The speech engines (pocketsphinx and installed Whisper models) and the model store behind them. */
  speech: SpeechEngines;
  modelDownloads: ModelDownloads;
}

/**
 * Seams for tests, set only by code that constructs the service (`serve(argv, tuning)`), never by
 * a CLI flag or an environment variable, so no user setting can loosen the SSRF guard.
 */
export interface ServiceTuning {
  /** How outbound requests (media_source, webhooks) resolve names and which test servers they may reach. */
  outbound?: OutboundNetwork;
  /** Shorter webhook timings, so tests need not wait 20 s or the 2 s … 2 h schedule. */
  webhooks?: { timeoutMs?: number; retryScheduleSec?: readonly number[] };
  /** The downloadable models, in place of whisper.cpp's published ones (a local test server's files). */
  modelCatalog?: readonly CatalogEntry[];
  /** Shorter realtime limits (idle timeout, streams at once), so tests need not wait a minute. */
  realtime?: Partial<import('./realtime/limits').RealtimeLimits>;
}

export function stderrLogger(quiet = false): Logger {
  const write = (level: string, msg: string, fields?: Record<string, unknown>) => {
    if (quiet && level === 'info') return;
    process.stderr.write(`${new Date().toISOString()} ${level} ${msg}${fields ? ' ' + JSON.stringify(fields) : ''}\n`);
  };
  return { info: (m, f) => write('info', m, f), warn: (m, f) => write('warn', m, f), error: (m, f) => write('error', m, f) };
}
