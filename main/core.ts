/**
 * The data side of the app behind every IPC channel: the API client, the cache and sync, wired
 * together. Transports (Electron IPC, the web bridge) call `createCore` and nothing else here.
 * Every read answers from the cache, so every view works offline; every edit goes to the cache
 * and the outbox in one transaction and reaches the service when it can.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CurrentUser } from '../common/api';
import { CAPTION_PROFILES, type CaptionProfileId } from '../common/transcript/captions';
import type { ExportOptions } from '../common/formats';
import type { AuthState, EventPayload, LoginOutcome, WatchChannelName } from '../common/ipc';
import { ApiClient } from './api/client';
import { Credentials } from './api/credentials';
import { ApiError } from './api/errors';
import { Cache } from './cache/cache';
import { describeRecovery } from './cache/open';
import { UserFacingError, type Emit, type Handlers } from './ipc/registry';
import { pdfFonts, printedText } from './platform/fonts';
import type { SecretStore } from './platform/secrets';
import { Connectivity } from './sync/connectivity';
import { SyncEngine } from './sync/engine';

export interface CoreOptions {
  dataDir: string;
  serviceUrl: string;
  mode: 'local' | 'cloud';
  secrets: SecretStore;
  emit: Emit;
  /** Background timers (default on). The crash-test child and some tests drive sync themselves. */
  background?: boolean;
  /** Client tuning, for tests. */
  timeoutMs?: number;
  retries?: number;
  /**
   * Sessions whose documents changed: a local edit or mutation, or a sync that pulled or pushed
   * them. Watch folders refresh the files they delivered from these (main/watch/in-app.ts).
   */
  documentsChanged?: (sessionIds: string[]) => void;
}

/** The core answers every channel but watch.*, which main/watch serves beside it (see backend.ts). */
export type CoreHandlers = Omit<Handlers, WatchChannelName>;

export interface Core {
  handlers: CoreHandlers;
  /** The service client on the signed-in user's credentials, for parts that act for the user (watch folders). */
  client: ApiClient;
  accessToken(): Promise<string | null>;
  close(): Promise<void>;
}

export const CACHE_FILE = 'cache.db';


/** A person-readable sentence for a failed sign-in. */
function refusal(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.transport) return `The service at this address cannot be reached (${err.message}).`;
    if (err.status === 401 || err.status === 403) return 'The e-mail address or password is wrong.';
    return err.message;
  }
  return (err as Error).message;
}

export async function createCore(opts: CoreOptions): Promise<Core> {
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const cache = Cache.open(join(opts.dataDir, CACHE_FILE));
  const emit = opts.emit;
  let message: string | null = cache.recovery ? describeRecovery(cache.recovery) : null;

  let engine: SyncEngine | null = null;
  const connectivity = new Connectivity(() => engine?.onConnectivityChange());
  const client = new ApiClient({ baseUrl: opts.serviceUrl, timeoutMs: opts.timeoutMs, retries: opts.retries, observe: (o) => connectivity.report(o) });
  let signedIn = false;
  const credentials = new Credentials(opts.secrets, opts.serviceUrl, client, () => {
    if (!signedIn) return;
    signedIn = false;
    message = 'Your session has ended. Please sign in again.';
    emit('auth.changed', state());
  });
  client.setAuth(credentials);

  // Signed in at start when a token outlived the last run and the cache knows the account (works offline).
  signedIn = !!(await credentials.accessToken()) && cache.currentAccount() !== null;
  const accountId = () => (signedIn ? (cache.currentAccount()?.id ?? null) : null);

  // Sync reports what it pulled or pushed as cache.changed; documentsChanged hears it too.
  const syncEmit: Emit = (event, payload) => {
    if (event === 'cache.changed') {
      const sessions = (payload as EventPayload<'cache.changed'>).sessions;
      if (sessions?.length) opts.documentsChanged?.(sessions);
    }
    emit(event, payload);
  };
  engine = new SyncEngine({ client, cache, connectivity, emit: syncEmit, accountId, background: opts.background ?? true });

  function state(): AuthState {
    const acc = signedIn ? cache.currentAccount() : null;
    const u = acc?.user;
    return {
      signedIn: !!acc,
      serviceUrl: opts.serviceUrl,
      mode: opts.mode,
      user: u ? { id: u.id, email: u.email, name: `${u.first_name} ${u.last_name}`.trim() || u.email, roles: u.roles } : null,
      message,
    };
  }

  let pendingMfa: { username: string; password: string; rememberMe: boolean } | null = null;

  async function finishLogin(token: string): Promise<LoginOutcome> {
    await credentials.setAccessToken(token);
    let user: CurrentUser;
    try {
      user = (await client.call('account.me')).result;
    } catch (err) {
      await credentials.setAccessToken(null);
      return { status: 'refused', message: refusal(err) };
    }
    cache.setCurrentAccount(opts.serviceUrl, user);
    signedIn = true;
    message = null;
    const s = state();
    emit('auth.changed', s);
    engine!.kick();
    void engine!.run();
    return { status: 'signed-in', state: s };
  }

  function requireAccount(): number {
    const id = accountId();
    if (id === null) throw new UserFacingError('NOT_SIGNED_IN', 'Please sign in first.');
    return id;
  }

  /** A local write: the UI hears of it, watch folders refresh their exports, and the outbox goes soon. */
  function changedLocally(documents: string[], sessionId: string | undefined): void {
    emit('cache.changed', { documents, ...(sessionId ? { sessions: [sessionId] } : {}) });
    if (sessionId) opts.documentsChanged?.([sessionId]);
    engine!.kick();
  }

  const handlers: CoreHandlers = {
    'auth.state': async () => state(),
    'auth.login': async ({ username, password, rememberMe }) => {
      try {
        const r = await client.call('auth.login', { query: { login_type: 'token' }, body: { username, password, remember_me: rememberMe } });
        if (r.mfa_required) {
          pendingMfa = { username, password, rememberMe };
          return { status: 'mfa-required' };
        }
        if (!r.login || !r.access_token) return { status: 'refused', message: 'The service did not accept the sign-in.' };
        return await finishLogin(r.access_token);
      } catch (err) {
        return { status: 'refused', message: refusal(err) };
      }
    },
    'auth.loginMfa': async ({ code }) => {
      if (!pendingMfa) return { status: 'refused', message: 'Start the sign-in again: no sign-in is waiting for a code.' };
      const { username, password, rememberMe } = pendingMfa;
      try {
        const r = await client.call('auth.loginMfa', { query: { login_type: 'token' }, body: { username, password, remember_me: rememberMe, totp_code: code, backup_code: code } });
        if (!r.login || !r.access_token) return { status: 'refused', message: 'The code was not accepted.' };
        pendingMfa = null;
        return await finishLogin(r.access_token);
      } catch (err) {
        return { status: 'refused', message: refusal(err) };
      }
    },
    'auth.logout': async () => {
      if (signedIn) await client.call('auth.logout', {}, { retries: 0, timeoutMs: 5000 }).catch(() => {});
      signedIn = false;
      await credentials.clear();
      cache.clearCurrentAccount();
      message = null;
      const s = state();
      emit('auth.changed', s);
      return s;
    },
    'sessions.list': async ({ offset, limit, q }) => {
      const id = accountId();
      return id === null ? { items: [], total: 0 } : cache.listSessions(id, { offset, limit, q });
    },
    'sessions.get': async ({ sessionId }) => {
      const id = accountId();
      return id === null ? null : cache.getSession(id, sessionId);
    },
    'documents.get': async ({ documentId }) => (accountId() === null ? null : cache.getDocument(documentId)),
    'documents.save': async ({ documentId, content, filename }) => {
      requireAccount();
      const rec = cache.saveDocument(documentId, content, filename);
      changedLocally([documentId], rec.session_id);
      return rec;
    },
    'documents.mutate': async ({ documentId, mutation }) => {
      requireAccount();
      const sessionId = cache.getDocument(documentId)?.session_id;
      const r = cache.mutate(documentId, mutation);
      changedLocally([documentId, ...(r.documentId && r.documentId !== documentId ? [r.documentId] : [])], sessionId);
      return r;
    },
    'documents.discardUnsent': async ({ documentId }) => {
      requireAccount();
      const sessionId = cache.row(documentId)?.session_id;
      const r = cache.discardUnsent(documentId);
      changedLocally([documentId], sessionId);
      return r;
    },
    'documents.merge': async ({ documentIds, outputFilename }) => {
      requireAccount();
      cache.queueMerge(documentIds, outputFilename);
      engine!.kick();
      return { queued: true as const };
    },
    'documents.shareLinks': async ({ documentId }) => (accountId() === null ? { links: [], pending: false } : cache.shareLinks(documentId)),
    'export.render': async ({ documentId, format, options }) => {
      const doc = cache.getDocument(documentId);
      if (!doc) throw new UserFacingError('NOT_FOUND', 'That document is not in the local cache.');
      if (!doc.body) throw new UserFacingError('NO_CONTENT', 'That document has no content in the local cache yet; sync first.');
      const { profile, ...rest } = options;
      if (profile !== undefined && !Object.hasOwn(CAPTION_PROFILES, profile)) {
        throw new UserFacingError('BAD_PROFILE', `Unknown caption profile "${profile}"; use one of ${Object.keys(CAPTION_PROFILES).join(', ')}.`);
      }
      const exportOptions: ExportOptions = { ...rest, ...(profile ? { profile: profile as CaptionProfileId } : {}), ...(format === 'pdf' ? pdfFonts(printedText(doc.body.content, doc.filename)) : {}) };
      // Loaded on first use: the writers (DOCX, PDF) are heavy and most runs never export.
      const { FORMAT_FILES, renderExport } = await import('../common/formats');
      const bytes = await renderExport(format, { filename: doc.filename, language: doc.language, timecode_offset: doc.timecode_offset, document: doc.body }, exportOptions);
      const file = FORMAT_FILES[format];
      const stem = doc.filename.replace(/\.[^.]+$/, '') || 'document';
      return { filename: `${stem}.${file.extension}`, mime: file.mediaType, base64: Buffer.from(bytes).toString('base64') };
    },
    'search.text': async ({ q, limit }) => {
      const id = accountId();
      return id === null ? [] : cache.search(id, q, limit);
    },
    'sync.now': async () => {
      requireAccount();
      await engine!.run();
      return engine!.state();
    },
    'sync.state': async () => engine!.state(),
    'sync.retryBlocked': async ({ documentId }) => {
      requireAccount();
      cache.requeueBlocked(documentId);
      await engine!.run();
      return engine!.state();
    },
    'media.url': async ({ sessionId }) => {
      const id = accountId();
      const s = id === null ? null : cache.getSession(id, sessionId);
      const url = s?.session.media_url;
      if (!url) return { url: null };
      return { url: new URL(url, opts.serviceUrl).toString() };
    },
  };

  engine.start();
  return {
    handlers,
    client,
    accessToken: () => credentials.accessToken(),
    async close() {
      await engine!.close();
      cache.close();
    },
  };
}

/** For tests and the crash child: the pieces behind the handlers. */
export { Cache, ApiClient, SyncEngine };
