/**
 * What the core's handler modules share. createCore (main/core.ts) builds one CoreContext and
 * hands each area (auth, sessions, documents, sync, search, export, media) the part it needs;
 * each area returns the handlers of its own channels, and createCore merges them.
 */
import type { AccountsChannelName, ImportChannelName, LiveChannelName, SettingsChannelName, ShellChannelName, SpeechModelChannelName, UpdateChannelName, WatchChannelName } from '../../../common/ipc';
import type { ApiClient } from '../../api/client';
import type { CaptionFollower } from '../../captions/follow';
import type { Cache } from '../../cache/cache';
import type { SyncEngine } from '../../sync/engine';
import type { Emit, Handlers } from '../registry';
import { UserFacingError } from '../user-facing-error';

/** The core answers every channel but watch.* and imports (main/imports), which main/watch serves beside it, settings, the shell's and accounts.*, which backend.ts serves, speechModels.* and live.*, which main/account-runtime.ts adds beside it, and updates.*, which backend.ts serves. */
export type CoreHandlers = Omit<Handlers, ImportChannelName | WatchChannelName | SettingsChannelName | ShellChannelName | AccountsChannelName | SpeechModelChannelName | LiveChannelName | UpdateChannelName>;

/** The handlers of one area: the channels named `<area>.*`. */
export type AreaHandlers<Area extends string> = Pick<CoreHandlers, Extract<keyof CoreHandlers, `${Area}.${string}`>>;

export interface CoreContext {
  cache: Cache;
  client: ApiClient;
  engine: SyncEngine;
  /** Caption documents kept in step with their transcript (main/captions). */
  captions: CaptionFollower;
  emit: Emit;
  serviceUrl: string;
  /**
   * What credentials and kept media are filed under: the service's address, but for the
   * embedded service one name, as its port may change at each start (accountIdentity).
   */
  identity: string;
  /** The signed-in account's cache id, or null when nobody is signed in. */
  accountId(): number | null;
  /** A local write: the UI hears of it, watch folders refresh their exports, and the outbox goes soon. */
  changedLocally(documents: string[], sessionId: string | undefined): void;
}

/** The signed-in account's id, or a UserFacingError for a channel that needs one. */
export function requireAccount(ctx: Pick<CoreContext, 'accountId'>): number {
  const id = ctx.accountId();
  if (id === null) throw new UserFacingError('NOT_SIGNED_IN', 'Please sign in first.');
  return id;
}

/** The identity of an account (CoreContext.identity): this computer's service is one whatever its port. */
export const accountIdentity = (mode: 'local' | 'cloud', serviceUrl: string) => (mode === 'local' ? 'local:this-computer' : serviceUrl);
