/**
 * One account at a time behind the IPC handlers: the active account's runtime (its core, watch
 * folders and imports, opened by the backend for that account's data folder and service URL)
 * answers every account-bound channel, and switching closes it and opens the other. Calls that
 * arrive during a switch wait for it, so none reaches a closed cache.
 */
import type { AuthState, EventName, EventPayload } from '../../common/ipc';
import type { Core } from '../core';
import type { Emit, Handlers } from '../ipc/registry';
import { UserFacingError } from '../ipc/user-facing-error';
import type { LiveCarry } from '../live/controller';
import type { MediaLinker } from '../media/links';
import { AccountBook, accountDataDir, checkService, LOCAL_ID, normalizeServiceUrl, type Account } from './accounts';

/** What the backend opens for one account. */
export interface AccountRuntime {
  core: Core;
  /** The account-bound handlers (the core's, watch folders', imports', local sign-in's). */
  handlers: Partial<Handlers>;
  /** Lets go of a live stream under way, for the runtime that replaces this one (the same account at a new address). */
  detachLive(): LiveCarry | null;
  close(): Promise<void>;
}

export interface OpenAccount {
  id: string;
  dataDir: string;
  serviceUrl: string;
  mode: 'local' | 'cloud';
  /** Where the runtime's events go (the switcher watches auth.changed to remember who signed in). */
  emit: Emit;
  /** A live stream the runtime this one replaces had under way: it carries on here. */
  live?: LiveCarry;
}

export interface AccountsOptions {
  dataDir: string;
  /** The embedded service's address when the app runs one: then "This computer" is an account. */
  localUrl: string | null;
  /** A service fixed by the settings or S2T_SERVICE_URL: the app then talks to it alone. */
  fixedUrl: string | null;
  open(account: OpenAccount): Promise<AccountRuntime>;
  emit: Emit;
}

export type AccountHandlers = Pick<Handlers, 'accounts.list' | 'accounts.add' | 'accounts.switch'>;

export interface Accounts {
  /** The account-bound channels, each answered by the active account's runtime. */
  handlers: Partial<Handlers>;
  accountHandlers: AccountHandlers;
  /** The account the app started on. */
  startedOn: { serviceUrl: string; mode: 'local' | 'cloud' };
  /** The embedded service answers at `url` now: "This computer" goes there if it moved (reopened if it is the active account). */
  moveLocal(url: string): Promise<void>;
  current(): AccountRuntime;
  /** The transport's media linker, kept across switches. */
  media: { setLinker(linker: MediaLinker): void };
  close(): Promise<void>;
}

export async function startAccounts(o: AccountsOptions): Promise<Accounts> {
  const book = new AccountBook(o.dataDir);
  let localUrl = o.localUrl;
  const usable = (a: Account | undefined): a is Account => !!a && (a.kind === 'cloud' || localUrl !== null);

  const where = (a: Account): OpenAccount => ({
    id: a.id,
    dataDir: accountDataDir(o.dataDir, a.id),
    serviceUrl: a.kind === 'local' ? localUrl! : a.serviceUrl!,
    mode: a.kind,
    emit: <E extends EventName>(event: E, payload: EventPayload<E>) => {
      const user = event === 'auth.changed' ? (payload as AuthState).user : null;
      if (user && activeId === a.id) book.rememberEmail(a.id, user.email);
      o.emit(event, payload);
    },
  });

  // A fixed service is the only account, in the data dir itself (as before accounts existed).
  const fixed: Account | null = o.fixedUrl ? { id: 'fixed', kind: 'cloud', serviceUrl: o.fixedUrl, email: null } : null;
  const saved = book.find(book.active);
  const first = fixed ?? (usable(saved) ? saved : book.find(LOCAL_ID)!);
  let activeId = first.id;
  const firstPlace = fixed ? { ...where(fixed), dataDir: o.dataDir } : where(first);
  let runtime = await o.open(firstPlace);
  let linker: MediaLinker | null = null;
  let switching: Promise<void> = Promise.resolve();

  const handlers: Partial<Handlers> = {};
  for (const name of Object.keys(runtime.handlers) as (keyof Handlers)[]) {
    (handlers as Record<string, (args: unknown) => Promise<unknown>>)[name] = async (args) => {
      await switching;
      const h = runtime.handlers[name] as ((a: unknown) => Promise<unknown>) | undefined;
      if (!h) throw new UserFacingError('UNAVAILABLE', 'This is not available for the current account.');
      return h(args);
    };
  }

  async function switchTo(id: string): Promise<void> {
    if (fixed) throw new UserFacingError('FIXED_SERVICE', `This app is set to use ${fixed.serviceUrl} only (in its settings or S2T_SERVICE_URL).`);
    const target = book.find(id);
    if (!usable(target)) throw new UserFacingError('NO_SUCH_ACCOUNT', target ? 'This computer has no local service running in this app.' : 'That account is not known here.');
    if (id === activeId) return;
    await reopen(target);
  }

  /** Closes the active runtime and opens `target`'s (another account, or the active one at its new address), then says who is signed in. */
  async function reopen(target: Account): Promise<void> {
    const id = target.id;
    const done = switching.then(async () => {
      const previous = book.find(activeId)!;
      // The same account at its service's new address: a live recording goes on there, not ends.
      const live = previous.id === id ? (runtime.detachLive() ?? undefined) : undefined;
      await runtime.close();
      try {
        activeId = id;
        runtime = await o.open({ ...where(target), live });
        book.setActive(id);
      } catch (err) {
        // The other account would not open (its cache is unreadable, say): stay where we were.
        activeId = previous.id;
        runtime = await o.open({ ...where(previous), live });
        throw err;
      } finally {
        if (linker) runtime.core.media.setLinker(linker);
      }
    });
    switching = done.catch(() => {});
    await done;
    const state = (await runtime.handlers['auth.state']!({})) as AuthState;
    o.emit('auth.changed', state);
  }

  const list = async () => ({
    active: activeId,
    accounts: (fixed ? [fixed] : book.list().filter(usable)).map((a) => ({ id: a.id, kind: a.kind, serviceUrl: a.kind === 'local' ? localUrl! : a.serviceUrl!, email: a.email })),
  });

  return {
    handlers,
    accountHandlers: {
      'accounts.list': list,
      'accounts.add': async ({ url }) => {
        if (fixed) throw new UserFacingError('FIXED_SERVICE', `This app is set to use ${fixed.serviceUrl} only (in its settings or S2T_SERVICE_URL).`);
        const serviceUrl = normalizeServiceUrl(url);
        await checkService(serviceUrl);
        await switchTo(book.add(serviceUrl).id);
        return list();
      },
      'accounts.switch': async ({ id }) => {
        await switchTo(id);
        return list();
      },
    },
    startedOn: { serviceUrl: firstPlace.serviceUrl, mode: firstPlace.mode },
    async moveLocal(url) {
      if (url === localUrl) return;
      localUrl = url;
      const active = book.find(activeId);
      if (!fixed && active?.kind === 'local') await reopen(active);
    },
    current: () => runtime,
    media: {
      setLinker(l) {
        linker = l;
        runtime.core.media.setLinker(l);
      },
    },
    close: async () => {
      await switching;
      await runtime.close();
    },
  };
}
