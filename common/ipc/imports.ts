/**
 * New transcriptions started from the app (the New transcription dialog, a drop on the window):
 * where a picked file is, the options chosen for it, and the upload queue's items. Served by
 * main/imports, which runs them on the watch folders' upload engine (one engine, not two).
 */
import { z } from 'zod';
import { UploadProgress } from './progress';

/**
 * Where a file the user picked or dropped is, as main can read it: a path (Electron: the native
 * dialog, or webUtils.getPathForFile on a drop), a file the browser streamed to main first
 * (browser mode: S2tBridge.stageFile), or, for media only, a URL the service downloads itself.
 */
export const ImportSource = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('path'), path: z.string().min(1).max(4096) }),
  z.object({ kind: z.literal('staged'), stagedId: z.string().regex(/^[\w-]{8,64}$/), name: z.string().min(1).max(255) }),
  z.object({ kind: z.literal('url'), url: z.url({ protocol: /^https?$/ }).max(4096) }),
]);
export type ImportSource = z.infer<typeof ImportSource>;

/** A file on this computer (a path or a staged file): the text to align, or the document to upload. */
export const CompanionFile = z.discriminatedUnion('kind', [ImportSource.options[0], ImportSource.options[1]]);
export type CompanionFile = z.infer<typeof CompanionFile>;

/** A chosen speech engine, or null for the service's own choice; shared by New transcription and watch profiles. */
export const SpeechEngineChoice = z.string().regex(/^(pocketsphinx|whisper:[a-z0-9][a-z0-9._-]{0,63})$/).nullable().default(null);

/** What the dialog asks; remembered as the next default. */
export const TranscriptionOptions = z.object({
  /** A language model key from models.list. */
  language: z.string().min(1).max(32),
  /** decode: speech to text; align: place a given text on the media; upload: a finished caption or transcript file (no recognition). */
  mode: z.enum(['decode', 'align', 'upload']).default('decode'),
  diarization: z.boolean().default(false),
  punctuation: z.boolean().default(true),
  /** Offensive words may be recognised (the local engine leaves them out by default). */
  allowProfanity: z.boolean().default(false),
  /** Offensive words are masked in the documents ("s***"), whatever the engine. */
  maskProfanity: z.boolean().default(false),
  /** The service keeps the media for playback in the editors. */
  keepMedia: z.boolean().default(true),
  glossaryId: z.union([z.string().min(1).max(64), z.number().int()]).nullable().default(null),
  customModelId: z.union([z.string().min(1).max(64), z.number().int()]).nullable().default(null),
  /** The speech engine to run ('pocketsphinx', 'whisper:NAME': one of the language's ModelChoice.engines); null: the service's choice, the best installed one. */
  speechEngine: SpeechEngineChoice,
  /** align: the text file; upload: the caption or transcript file. One companion serves one media file. */
  companion: CompanionFile.nullable().default(null),
});
export type TranscriptionOptions = z.output<typeof TranscriptionOptions>;

/** queued also covers waiting while offline (then `message` says so); done: the session is on the service. */
export const ImportState = z.enum(['queued', 'uploading', 'transcribing', 'done', 'failed', 'cancelled']);
export type ImportState = z.infer<typeof ImportState>;

/** One file (or URL) in the uploads view. */
export const ImportItem = UploadProgress.extend({
  itemId: z.number().int(),
  /** The file's name (or the URL), for people. */
  name: z.string(),
  source: ImportSource,
  options: TranscriptionOptions,
  state: ImportState,
  /** The session it made, once the service named it: one click away in the uploads view. */
  sessionId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ImportItem = z.infer<typeof ImportItem>;

/** A language the service offers, as the dialog lists it. */
export const ModelChoice = z.object({
  key: z.string(),
  name: z.string(),
  /** False when the service lists the language but cannot transcribe it here (shown, not choosable). */
  supported: z.boolean(),
  hasPunctuation: z.boolean(),
  /** The speech engine a transcription in this language runs on ('pocketsphinx', 'whisper:NAME'); absent when the service does not say (a cloud). */
  engine: z.string().max(80).nullable().optional(),
  /** Every engine that can run this language on the service (the local service says; a cloud does not): more than one, and the person may choose. */
  engines: z.array(z.string().max(80)).max(100).optional(),
});
export type ModelChoice = z.infer<typeof ModelChoice>;

const Empty = z.object({});

/** A glossary or custom model of the account, as the dialog offers it. */
export const AccountChoice = z.object({
  id: z.union([z.string().min(1).max(64), z.number().int()]),
  name: z.string(),
  /** Its language (a glossary's source language); '' when the service gives none. */
  language: z.string(),
});
export type AccountChoice = z.infer<typeof AccountChoice>;

/** A glossary as the app edits it: its terms are what the local engine learns to hear. */
export const GlossaryDraft = z.object({
  /** null: a new glossary. */
  id: z.number().int().nullable(),
  name: z.string().trim().min(1, 'Give the glossary a name.').max(200),
  /** The language its terms are spoken in. */
  language: z.string().min(2).max(8),
  entries: z.array(z.object({ source: z.string().trim().min(1).max(200), target: z.string().max(200) })).max(1000, 'A glossary holds at most 1000 terms.'),
});
export type GlossaryDraft = z.infer<typeof GlossaryDraft>;

export const importChannels = {
  /** One of the account's glossaries with its terms. */
  'glossaries.get': { args: z.object({ id: z.number().int() }), result: GlossaryDraft },
  /** Creates (id null) or replaces a glossary and its terms; answers its id. */
  'glossaries.save': { args: GlossaryDraft, result: z.object({ id: z.number().int() }) },
  /** The service's languages (cached for offline use; `stale` when the list is the cached one). */
  'models.list': { args: Empty, result: z.object({ models: z.array(ModelChoice), stale: z.boolean() }) },
  /** The account's glossaries and custom models (cached for offline use, like models.list); empty lists when it has none. */
  'models.accountLists': { args: Empty, result: z.object({ glossaries: z.array(AccountChoice), customModels: z.array(AccountChoice), stale: z.boolean() }) },
  /** Queues files (or URLs) with one set of options; refuses, with a reason, what cannot be transcribed before anything uploads. */
  'imports.add': { args: z.object({ sources: z.array(ImportSource).min(1).max(500), options: TranscriptionOptions }), result: z.object({ items: z.array(ImportItem) }) },
  'imports.list': { args: z.object({ offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(500).default(100) }), result: z.object({ items: z.array(ImportItem), total: z.number().int() }) },
  'imports.cancel': { args: z.object({ itemId: z.number().int() }), result: ImportItem },
  'imports.retry': { args: z.object({ itemId: z.number().int() }), result: ImportItem },
  /** Forgets finished, failed and cancelled items (their sessions stay). */
  'imports.clearFinished': { args: Empty, result: z.object({ removed: z.number().int() }) },
} as const;

export const importEvents = {
  /** An import moved on: state changes, and upload bytes a few times a second. */
  'imports.progress': ImportItem,
} as const;
export type ImportChannelName = keyof typeof importChannels;

/** Browser mode's stageFile: POST the file's bytes here (query: name, size), with the page's session (AdmitAnswer) in STAGE_TOKEN_HEADER; answers StageAnswer. */
export const STAGE_PATH = '/stage';
export const STAGE_TOKEN_HEADER = 'x-s2t-token';
export const StageAnswer = z.object({ stagedId: z.string().regex(/^[\w-]{8,64}$/) });
