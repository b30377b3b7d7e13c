/**
 * The renderer <-> main contract: every channel with zod schemas for its arguments and result,
 * and every event main pushes. The preload bridge and the web bridge are both built from this
 * list, and main validates arguments (and the renderer results) with these schemas.
 */
import { z } from 'zod';
import { ExportFormat, Session } from '../api';
import { DocumentBody, DocumentContent } from '../transcript/model';
import { accountChannels } from './account';
import { captionsChannels, captionsEvents } from './captions';
import { conflictsChannels } from './conflicts';
import { importChannels, importEvents, SpeechEngineChoice, type ImportSource } from './imports';
import { liveChannels, liveEvents } from './live';
import { mediaChannels } from './media';
import { UploadProgress } from './progress';
import { settingsChannels, settingsEvents } from './settings';
import { shellChannels, shellEvents } from './shell';
import { updateChannels, updateEvents } from './updates';
import { speechModelChannels } from './speech-models';
import { SessionListQuery, sessionsChannels, sessionsEvents } from './sessions';

export const AuthState = z.object({
  signedIn: z.boolean(),
  /** Where the app talks to: the embedded local service or a cloud account. */
  serviceUrl: z.string(),
  mode: z.enum(['local', 'cloud']),
  user: z.object({ id: z.number(), email: z.string(), name: z.string(), roles: z.array(z.string()) }).nullable(),
  /** Why the last sign-in or sync was refused, in words for a person. */
  message: z.string().nullable().optional(),
});
export type AuthState = z.infer<typeof AuthState>;

export const LoginOutcome = z.discriminatedUnion('status', [
  z.object({ status: z.literal('signed-in'), state: AuthState }),
  /** `username`: whose code is asked for (the app's own sign-in on this computer has no address typed in the form). */
  z.object({ status: z.literal('mfa-required'), username: z.string().max(320).optional() }),
  z.object({ status: z.literal('refused'), message: z.string() }),
]);
export type LoginOutcome = z.infer<typeof LoginOutcome>;

/** A cached session as the UI lists it. */
export const SessionSummary = Session.extend({
  /** Local edits not yet on the service. */
  pending_edits: z.number().int().min(0),
  /** The service no longer has it, but unsent edits keep it here. */
  deleted_on_server: z.boolean(),
  /** Why the service refused to delete it (the session is back in the list); null otherwise. */
  delete_refused: z.string().nullable().default(null),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

export const LocalState = z.enum(['synced', 'pending', 'conflict']);

export const DocumentSummary = z.object({
  id: z.string(),
  session_id: z.string(),
  filename: z.string(),
  type: z.enum(['document', 'caption']),
  language: z.string(),
  last_modified: z.string(),
  finished: z.boolean(),
  timecode_offset: z.string(),
  local_state: LocalState,
  /** Why this document's kept changes are no longer sent (the service refused them, or they kept failing); null otherwise. */
  unsent_reason: z.string().nullable(),
});
export type DocumentSummary = z.infer<typeof DocumentSummary>;

export const DocumentRecord = DocumentSummary.extend({ body: DocumentBody.nullable() });
export type DocumentRecord = z.infer<typeof DocumentRecord>;

const Empty = z.object({});

export const DocumentMutation = z.discriminatedUnion('op', [
  z.object({ op: z.literal('finalize'), finished: z.boolean() }),
  z.object({ op: z.literal('resetToOriginal') }),
  z.object({ op: z.literal('clearText') }),
  z.object({ op: z.literal('summarize') }),
  z.object({ op: z.literal('rename'), filename: z.string().min(1).max(255) }),
  z.object({ op: z.literal('delete') }),
  z.object({ op: z.literal('copy'), newFilename: z.string().min(1).max(255) }),
  z.object({ op: z.literal('share'), allowEditing: z.boolean(), allowExport: z.boolean() }),
  z.object({ op: z.literal('setTimecodeOffset'), timecodeOffset: z.string().regex(/^\d{2}:\d{2}:\d{2}[:;]\d{2}$/) }),
]);
export type DocumentMutation = z.infer<typeof DocumentMutation>;

export const SearchHit = z.object({
  session_id: z.string(),
  document_id: z.string(),
  filename: z.string(),
  snippet: z.string(),
  /** Where in the media the hit is, to jump to. */
  time_ms: z.number().int().min(0).nullable(),
});

export const ExportOptions = z.object({
  speakers: z.enum(['none', 'prefix', 'voice']).optional(),
  timestamps: z.boolean().optional(),
  profile: z.string().max(32).optional(),
});

export const SyncState = z.object({
  connectivity: z.enum(['online', 'offline', 'degraded']),
  /** Local changes waiting to be sent. */
  pending: z.number().int().min(0),
  /** Local changes kept but no longer sent (the service refused them, or they kept failing). */
  blocked: z.number().int().min(0),
  lastPullAt: z.string().nullable(),
  /** What went wrong in the last sync, in words for a person; null after a clean sync. */
  lastError: z.string().nullable(),
  /**
   * Why each blocked change was not sent, a sentence each, from the reasons the cache keeps with
   * them: they stay as long as the changes do, whatever later runs say in lastError.
   */
  blockedReasons: z.array(z.string()),
  running: z.boolean(),
});
export type SyncState = z.infer<typeof SyncState>;

/** A magic link of a document: one the service made for our share requests, or one it lists (mailed ones too). */
export const ShareLinkRecord = z.object({
  documentId: z.string(),
  /** The service's id of the link; null for one made before links had ids that the service's list has not matched yet. */
  id: z.string().nullable(),
  /** How it was made: asked for as a link, or sent by e-mail to mailedTo. */
  via: z.enum(['link', 'email']),
  mailedTo: z.string().nullable(),
  /** The address to copy; null when only its recipient has it (a mailed link). */
  url: z.string().nullable(),
  allowEditing: z.boolean(),
  allowExport: z.boolean(),
  created: z.string(),
  expires: z.string(),
});
export type ShareLinkRecord = z.infer<typeof ShareLinkRecord>;

// --- Watch folders (main/watch) ---------------------------------------------------------------

/** How a watched folder's media is transcribed and delivered. */
export const WatchProfile = z.object({
  /** A language model key from the models list. */
  language: z.string().min(1).max(32).default('en'),
  /** auto: align when a same-named .txt or caption file sits beside the media, decode otherwise. */
  sessionMode: z.enum(['auto', 'decode', 'align']).default('auto'),
  diarization: z.boolean().default(false),
  punctuation: z.boolean().default(true),
  /** As TranscriptionOptions: offensive words heard, offensive words masked. */
  allowProfanity: z.boolean().default(false),
  maskProfanity: z.boolean().default(false),
  glossaryId: z.union([z.string().min(1).max(64), z.number().int()]).nullable().default(null),
  customModelId: z.union([z.string().min(1).max(64), z.number().int()]).nullable().default(null),
  /** As TranscriptionOptions: the engine to run, null for the service's choice. */
  speechEngine: SpeechEngineChoice,
  subfolders: z.boolean().default(true),
  /** Glob patterns relative to the folder (picomatch); empty include means everything. */
  include: z.array(z.string().min(1).max(256)).max(64).default([]),
  exclude: z.array(z.string().min(1).max(256)).max(64).default([]),
  formats: z.array(z.object({ format: ExportFormat, options: ExportOptions.default({}) })).min(1).max(9).default([{ format: 'srt', options: {} }, { format: 'txt', options: {} }]),
  /** beside: next to the media; folder: into outputDir (absolute, or relative to the watched folder). */
  output: z.enum(['beside', 'folder']).default('beside'),
  outputDir: z.string().min(1).max(4096).nullable().default(null),
  /** What happens to the source once delivered (done/) or failed for good (failed/). */
  afterwards: z.enum(['leave', 'move']).default('leave'),
  /** Rewrite the delivered files when the document is later edited in the app. */
  refreshOnEdit: z.boolean().default(false),
});
export type WatchProfile = z.output<typeof WatchProfile>;

export const WatchFolder = z.object({
  id: z.string(),
  path: z.string(),
  profile: WatchProfile,
  paused: z.boolean(),
});
export type WatchFolder = z.infer<typeof WatchFolder>;

export const WatchItemState = z.enum(['detected', 'uploading', 'transcribing', 'fetching', 'delivered', 'failed']);
export type WatchItemState = z.infer<typeof WatchItemState>;

export const WatchProgress = UploadProgress.extend({
  itemId: z.number().int(),
  folderId: z.string(),
  path: z.string(),
  state: WatchItemState,
});
export type WatchProgress = z.infer<typeof WatchProgress>;

export const WatchItem = WatchProgress.extend({
  hash: z.string(),
  sessionId: z.string().nullable(),
  outputs: z.array(z.string()),
  attempts: z.number().int(),
  updatedAt: z.string(),
});
export type WatchItem = z.infer<typeof WatchItem>;

export const WatchState = z.object({ paused: z.boolean(), folders: z.array(WatchFolder) });
export type WatchState = z.infer<typeof WatchState>;

/** Channels of watch folders, served by main/watch/ipc.ts beside the core's (the backend merges the two). */
export const watchChannels = {
  'watch.state': { args: Empty, result: WatchState },
  'watch.addFolder': { args: z.object({ path: z.string().min(1).max(4096), profile: WatchProfile.default(WatchProfile.parse({})) }), result: WatchFolder },
  'watch.updateFolder': { args: z.object({ folderId: z.string().min(1), profile: WatchProfile }), result: WatchFolder },
  'watch.removeFolder': { args: z.object({ folderId: z.string().min(1) }), result: WatchState },
  /** Pause or resume one folder, or everything when folderId is absent. */
  'watch.pause': { args: z.object({ folderId: z.string().min(1).optional(), paused: z.boolean() }), result: WatchState },
  'watch.items': {
    args: z.object({ folderId: z.string().min(1).optional(), state: WatchItemState.optional(), offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(500).default(100) }),
    result: z.object({ items: z.array(WatchItem), total: z.number().int() }),
  },
  'watch.retry': { args: z.object({ itemId: z.number().int() }), result: WatchItem },
  /** A file skipped as already transcribed (same content, same profile) is uploaded and transcribed once more. */
  'watch.transcribeAgain': { args: z.object({ itemId: z.number().int() }), result: WatchItem },
} as const;

export const channels = {
  'auth.state': { args: Empty, result: AuthState },
  'auth.login': {
    args: z.object({ username: z.string().min(1).max(320), password: z.string().min(1).max(1024), rememberMe: z.boolean().default(false) }),
    result: LoginOutcome,
  },
  'auth.loginMfa': { args: z.object({ code: z.string().min(1).max(64) }), result: LoginOutcome },
  'auth.logout': { args: Empty, result: AuthState },
  /** Local mode: sign in to this computer's own service with the credential the app holds for it. */
  'auth.signInLocal': { args: Empty, result: LoginOutcome },
  'sessions.list': { args: SessionListQuery, result: z.object({ items: z.array(SessionSummary), total: z.number().int() }) },
  /** engine: what made the session's transcript, as the service recorded it in the document ('pocketsphinx', 'whisper:NAME', '+align'…); null when unknown. */
  'sessions.get': { args: z.object({ sessionId: z.string().min(1) }), result: z.object({ session: SessionSummary, documents: z.array(DocumentSummary), engine: z.string().max(120).nullable() }).nullable() },
  'documents.get': { args: z.object({ documentId: z.string().min(1) }), result: DocumentRecord.nullable() },
  'documents.save': {
    args: z.object({ documentId: z.string().min(1), content: DocumentContent, filename: z.string().min(1).max(255).optional() }),
    result: DocumentRecord,
  },
  'documents.mutate': { args: z.object({ documentId: z.string().min(1), mutation: DocumentMutation }), result: z.object({ documentId: z.string().nullable() }) },
  'documents.merge': { args: z.object({ documentIds: z.array(z.string().min(1)).min(2), outputFilename: z.string().min(1).max(255) }), result: z.object({ queued: z.literal(true) }) },
  /**
   * A document's magic links (ask for one with documents.mutate {op: 'share'}; asking again for
   * the same rights reuses the link). `pending`: a share request is still waiting to be sent.
   * `listed`: the list is the service's (every live link, mailed ones included); false: the
   * service could not be asked, so these are the links made on this computer.
   */
  'documents.shareLinks': {
    args: z.object({ documentId: z.string().min(1) }),
    result: z.object({ links: z.array(ShareLinkRecord).max(1000), pending: z.boolean(), listed: z.boolean() }),
  },
  /** Renders an export from the cache (works offline) and hands the bytes to the renderer. */
  'export.render': {
    args: z.object({ documentId: z.string().min(1), format: ExportFormat, options: ExportOptions.default({}) }),
    result: z.object({ filename: z.string(), mime: z.string(), base64: z.string() }),
  },
  'search.text': { args: z.object({ q: z.string().min(1).max(200), limit: z.number().int().min(1).max(200).default(50) }), result: z.array(SearchHit) },
  'sync.now': { args: Empty, result: SyncState },
  'sync.state': { args: Empty, result: SyncState },
  /**
   * Drops the document's unsent changes (the user's choice, after they could not be sent). The
   * service's version comes back with the next sync; a document the service no longer has, or
   * never had, goes (documentId null).
   */
  'documents.discardUnsent': { args: z.object({ documentId: z.string().min(1) }), result: z.object({ documentId: z.string().nullable() }) },
  /** Sends the blocked changes (of one document, or all) again, then syncs. */
  'sync.retryBlocked': { args: z.object({ documentId: z.string().min(1).optional() }), result: SyncState },
  ...mediaChannels,
  ...watchChannels,
  ...accountChannels,
  ...settingsChannels,
  ...shellChannels,
  ...updateChannels,
  ...importChannels,
  ...sessionsChannels,
  ...captionsChannels,
  ...conflictsChannels,
  ...speechModelChannels,
  ...liveChannels,
} as const;

export const events = {
  'auth.changed': AuthState,
  'cache.changed': z.object({ sessions: z.array(z.string()).optional(), documents: z.array(z.string()).optional() }),
  'sync.progress': z.object({ phase: z.enum(['pull', 'push']), done: z.number().int(), total: z.number().int() }),
  'sync.state': SyncState,
  'sync.conflict': z.object({ documentId: z.string(), conflictCopyId: z.string(), filename: z.string() }),
  /** A watch-folder item moved on: state changes, and upload bytes a few times a second. */
  'watch.progress': WatchProgress,
  ...settingsEvents,
  ...shellEvents,
  ...updateEvents,
  ...importEvents,
  ...sessionsEvents,
  ...captionsEvents,
  ...liveEvents,
} as const;

export type Channels = typeof channels;
export type ChannelName = keyof Channels;
export type WatchChannelName = keyof typeof watchChannels;
export type EventName = keyof typeof events;
export type ArgsOf<C extends ChannelName> = z.input<Channels[C]['args']>;
export type ResultOf<C extends ChannelName> = z.output<Channels[C]['result']>;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

export const channelNames = Object.keys(channels) as ChannelName[];
export const eventNames = Object.keys(events) as EventName[];

/** Errors cross the bridge as this shape; the renderer shows `message`. */
export const IpcError = z.object({ code: z.string(), message: z.string() });
export type IpcError = z.infer<typeof IpcError>;

/** A call's answer as it crosses a bridge: errors travel as data, since thrown errors lose their fields. */
export type IpcReply<C extends ChannelName> = { ok: true; value: ResultOf<C> } | { ok: false; error: IpcError };

/** What window.s2t offers the renderer (Electron preload and web bridge alike). */
export interface S2tBridge {
  invoke<C extends ChannelName>(channel: C, args: ArgsOf<C>): Promise<IpcReply<C>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /**
   * Makes a File the user picked or dropped readable by main, for imports.add: Electron names its
   * path; browser mode streams it to main's data dir first (never whole in memory).
   */
  stageFile(file: File, onProgress?: (sentBytes: number, totalBytes: number) => void): Promise<ImportSource>;
}
