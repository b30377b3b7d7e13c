/**
 * The session list's query (search, sort, filters; all done in SQLite by main/cache/sessions.ts),
 * its remembered view, deleting sessions (queued in the outbox like any edit), the session page's
 * actions that need the service at once (translate, revoke a link, share by e-mail), and exports
 * written to a file by main (one document, or many sessions into a folder).
 */
import { z } from 'zod';
import { ExportFormat, SessionMode, SessionStatus, TranslationLanguage } from '../api';

/**
 * What became of a link sent by e-mail: sent, or (a service with no mail server) saved as a draft
 * at draftPath and not sent. linkUrl is the link itself, to copy; localOnly: it opens only on the
 * service's computer; mailto writes the same message in the person's own mail app.
 */
export const EmailShareOutcome = z.object({
  sent: z.boolean(),
  draftPath: z.string().max(4096).nullable(),
  linkUrl: z.string().max(4096).nullable(),
  localOnly: z.boolean(),
  mailto: z.string().max(16_384).nullable(),
});
export type EmailShareOutcome = z.infer<typeof EmailShareOutcome>;

export const SessionSort = z.enum(['date', 'name', 'duration', 'status']);
export type SessionSort = z.infer<typeof SessionSort>;

/** What the list shows: remembered per account across restarts (sessions.setView). */
export const SessionListView = z.object({
  q: z.string().max(200).default(''),
  sort: SessionSort.default('date'),
  direction: z.enum(['asc', 'desc']).default('desc'),
  /** Empty: every status. */
  status: z.array(SessionStatus).max(SessionStatus.options.length).default([]),
  /** null: every language. */
  language: z.string().max(32).nullable().default(null),
  mode: SessionMode.nullable().default(null),
});
export type SessionListView = z.output<typeof SessionListView>;

/** sessions.list's arguments: a page of the list as the view asks for it. */
export const SessionListQuery = z.object({
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(500).default(50),
  q: z.string().max(200).optional(),
  /** date (the default), newest first (the default direction). */
  sort: SessionSort.optional(),
  direction: z.enum(['asc', 'desc']).optional(),
  status: z.array(SessionStatus).max(SessionStatus.options.length).optional(),
  language: z.string().max(32).optional(),
  mode: SessionMode.optional(),
});
export type SessionListQuery = z.output<typeof SessionListQuery>;

/** The rules of the service's rename (common/api/routes.ts), in a person's words. */
export const SessionName = z
  .string()
  .trim()
  .min(1, 'Give the session a name.')
  .max(255, 'A name holds at most 255 characters.')
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'A name is one line: no line breaks or control characters.');

const SessionIds = z.array(z.string().min(1).max(128)).min(1).max(10_000);

/** A translation language as the session page offers it; unavailable ones are shown, not hidden. */
export const TranslationChoice = z.object({
  code: TranslationLanguage,
  available: z.boolean(),
  /** Why it is unavailable (the engine's words), when known. */
  reason: z.string().nullable(),
});
export type TranslationChoice = z.infer<typeof TranslationChoice>;

export const ExportRenderOptions = z.object({
  speakers: z.enum(['none', 'prefix', 'voice']).optional(),
  timestamps: z.boolean().optional(),
  profile: z.string().max(32).optional(),
});

const FilePath = z.string().min(1).max(4096);
/** Names the export.progress events of one call, so the view that asked can follow them. */
const ProgressId = z.string().min(1).max(64);

export const sessionsChannels = {
  /** The languages and modes present in the account's sessions, for the list's filters. */
  'sessions.facets': { args: z.object({}), result: z.object({ languages: z.array(z.string()), modes: z.array(SessionMode) }) },
  'sessions.view': { args: z.object({}), result: SessionListView },
  'sessions.setView': { args: SessionListView, result: SessionListView },
  /**
   * Deletes sessions here at once and queues the deletes for the service (sent by the push, offline
   * or not). A delete the service refuses brings the session back with the reason.
   */
  'sessions.delete': { args: z.object({ sessionIds: SessionIds }), result: z.object({ deleted: z.number().int() }) },
  /**
   * Renames a session here at once and queues the rename for the service, like any edit (offline
   * too); its name is one line of text, as the service accepts it.
   */
  'sessions.rename': {
    args: z.object({ sessionId: z.string().min(1).max(128), filename: SessionName }),
    result: z.object({ renamed: z.boolean() }),
  },
  /** Needs the service: the engine makes a new document in the target language. */
  'documents.translate': { args: z.object({ documentId: z.string().min(1), targetLanguage: TranslationLanguage }), result: z.object({ documentId: z.string() }) },
  'documents.translateLanguages': { args: z.object({ documentId: z.string().min(1) }), result: z.object({ languages: z.array(TranslationChoice) }) },
  /** Revokes one link by its service id (ShareLinkRecord.id); its page, exports and media stop at once. */
  'documents.revokeShare': { args: z.object({ documentId: z.string().min(1), linkId: z.string().min(1).max(512) }), result: z.object({ revoked: z.boolean() }) },
  /** Revokes every live link of the document, mailed ones included; `revoked` counts them. */
  'documents.revokeAllShares': { args: z.object({ documentId: z.string().min(1) }), result: z.object({ revoked: z.number().int().min(0) }) },
  'documents.shareEmail': { args: z.object({ documentId: z.string().min(1), email: z.email().max(320), message: z.string().max(5000).default('') }), result: EmailShareOutcome },
  /** Renders one document from the cache and writes it to `path` (Electron's save dialog chose it). */
  'export.toFile': {
    args: z.object({ documentId: z.string().min(1), format: ExportFormat, options: ExportRenderOptions.default({}), path: FilePath, progressId: ProgressId.optional() }),
    result: z.object({ path: FilePath, bytes: z.number().int() }),
  },
  /**
   * One format for every selected session, into a folder: each session's documents (transcripts
   * for transcript formats, captions, else transcripts, for caption formats). Progress as export.progress.
   */
  'export.bulk': {
    args: z.object({ sessionIds: SessionIds, format: ExportFormat, folder: FilePath, options: ExportRenderOptions.default({}), progressId: ProgressId.optional() }),
    result: z.object({ written: z.array(FilePath), skipped: z.array(z.object({ sessionId: z.string(), reason: z.string() })) }),
  },
} as const;

export const sessionsEvents = {
  /** An export that takes a while (DOCX, PDF, bulk): how far it is. */
  'export.progress': z.object({ id: z.string(), done: z.number().int().min(0), total: z.number().int().min(0), label: z.string() }),
} as const;
