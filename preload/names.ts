/**
 * The channel and event names the preload lets through, as plain strings: importing them from
 * common/ipc would bundle zod and the whole contract into the preload. The types below fail to
 * compile unless each list holds exactly the contract's names, so the two cannot drift apart.
 */
import type { ChannelName, EventName } from '../common/ipc';

export const channelNames = [
  'auth.state', 'auth.login', 'auth.loginMfa', 'auth.logout', 'auth.signInLocal', 'auth.cancelMfa', 'auth.ssoStart',
  'account.profile', 'account.tokens', 'account.createToken', 'account.deleteToken', 'account.mfaStart', 'account.mfaEnable', 'account.mfaBackupCodes', 'account.mfaDisable',
  'accounts.list', 'accounts.add', 'accounts.switch',
  'sessions.list', 'sessions.get',
  'documents.get', 'documents.save', 'documents.mutate', 'documents.merge', 'documents.shareLinks', 'documents.discardUnsent',
  'export.render', 'search.text',
  'sync.now', 'sync.state', 'sync.retryBlocked',
  'media.source',
  'media.peaks',
  'watch.state', 'watch.addFolder', 'watch.updateFolder', 'watch.removeFolder', 'watch.pause', 'watch.items', 'watch.retry', 'watch.transcribeAgain',
  'settings.get', 'settings.set',
  'dialog.open', 'dialog.save', 'folders.list', 'shell.showInFolder', 'service.status', 'app.about',
  'models.list', 'models.accountLists', 'glossaries.get', 'glossaries.save', 'imports.add', 'imports.list', 'imports.cancel', 'imports.retry', 'imports.clearFinished',
  'sessions.facets', 'sessions.view', 'sessions.setView', 'sessions.delete', 'sessions.rename', 'documents.translate', 'documents.translateLanguages', 'documents.revokeShare', 'documents.revokeAllShares', 'documents.shareEmail', 'export.toFile', 'export.bulk',
  'captions.rebuild',
  'conflicts.list', 'conflicts.get', 'conflicts.resolve',
  'speechModels.list', 'speechModels.download', 'speechModels.pause', 'speechModels.cancel', 'speechModels.delete', 'speechModels.import',
  'live.state', 'live.start', 'live.audio', 'live.pause', 'live.stop', 'live.reset', 'live.address', 'live.setAddress',
  'updates.state', 'updates.check', 'updates.download', 'updates.install',
] as const satisfies readonly ChannelName[];

export const eventNames = ['auth.changed', 'cache.changed', 'sync.progress', 'sync.state', 'sync.conflict', 'watch.progress', 'settings.changed', 'app.command', 'service.status', 'imports.progress', 'export.progress', 'captions.rebuilt', 'live.changed', 'updates.changed', 'app.openFiles'] as const satisfies readonly EventName[];

/** `true` when the list names every member of the union; otherwise the type of what is missing. */
type ListsAll<Union, List extends readonly unknown[]> = [Exclude<Union, List[number]>] extends [never] ? true : Exclude<Union, List[number]>;
export const everyChannelListed: ListsAll<ChannelName, typeof channelNames> = true;
export const everyEventListed: ListsAll<EventName, typeof eventNames> = true;
