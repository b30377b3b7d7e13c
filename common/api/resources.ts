/**
 * Every resource of the spec as a zod schema. Unknown extra fields from a server are kept
 * (looseObject) where the spec leaves the field list open, and stripped elsewhere.
 */
import { z } from 'zod';
import { DocumentBody } from '../transcript/model';
import { DocumentType, JobStatus, Role, SessionMode, SessionStatus, TokenType, TranslationLanguage, WebhookEvent } from './enums';

const timestamp = z.string().min(1);

export const ApiToken = z.object({
  id: z.number(),
  name: z.string(),
  key: z.string(),
  /** Present in full only in the creation response. */
  token_value: z.string().optional(),
  type: TokenType,
  expires: timestamp,
});
export type ApiToken = z.infer<typeof ApiToken>;

export const CurrentUser = z.object({
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  newsletter: z.boolean(),
  roles: z.array(Role),
  two_factor_active: z.boolean(),
  is_active: z.boolean(),
  id: z.number(),
  identity_provider: z.string(),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

export const JwtClaims = z.object({
  aud: z.array(z.string()),
  exp: z.number().int(),
  iat: z.number().int(),
  iss: z.string(),
  nbf: z.number().int(),
  uid: z.number().int(),
  oid: z.number().int(),
  scopes: z.array(Role),
});
export type JwtClaims = z.infer<typeof JwtClaims>;

export const LanguageModel = z.looseObject({
  id: z.number(),
  key: z.string(),
  bcp47: z.string(),
  name: z.string(),
  is_private: z.boolean(),
  is_trainable: z.boolean(),
  has_punctuation: z.boolean().optional(),
  /** Local service only: the embedded engine really recognises this language. */
  engine_supported: z.boolean().optional(),
  /** Local service only: the speech engine a transcription in this language runs on ('pocketsphinx', 'whisper:NAME'). */
  speech_engine: z.string().max(80).nullable().optional(),
  /** Local service only: every installed engine that can run this language (speech_engine first); batch transcribe's speech_engine takes any of them. */
  speech_engines: z.array(z.string().max(80)).max(100).optional(),
});
export type LanguageModel = z.infer<typeof LanguageModel>;

export const Session = z.looseObject({
  id: z.number().optional(),
  session_id: z.string(),
  duration: z.number(),
  error: z.string().nullable(),
  filename: z.string(),
  media_type: z.string(),
  media_url: z.string(),
  language: z.string(),
  integration_id: z.number().optional(),
  language_key: z.string().optional(),
  status: SessionStatus.optional(),
  last_modified: timestamp.optional(),
  date_upload: timestamp.nullable().optional(),
  date_finished: timestamp.nullable().optional(),
  date_retried: timestamp.nullable().optional(),
  date_session_start: timestamp.nullable().optional(),
  wave_info_url: z.string().optional(),
  keep_media: z.boolean().optional(),
  diarization: z.boolean().optional(),
  session_mode: SessionMode.nullable().optional(),
  allow_magic_link_export: z.boolean().optional(),
});
export type Session = z.infer<typeof Session>;

export const LegacyCreateResult = z.object({
  duration: z.number(),
  error: z.string().nullable(),
  filename: z.string(),
  media_type: z.string(),
  media_url: z.string(),
  session_id: z.string(),
  status: z.string(),
});

export const Document = z.looseObject({
  id: z.string(),
  filename: z.string(),
  type: DocumentType,
  language: z.string(),
  created: timestamp,
  last_modified: timestamp,
  finished: z.boolean(),
  timecode_offset: z.string().regex(/^\d{2}:\d{2}:\d{2}[:;]\d{2}$/),
  content_type: z.string(),
  size_bytes: z.number(),
  /** Absent in direct-download mode and in lists read without include_content. */
  document: DocumentBody.optional(),
  download_url: z.string().optional(),
  expires_in: z.number().optional(),
  /** Interface choice: the session a document belongs to, so a merged or listed document names it. */
  session_id: z.string().optional(),
});
export type Document = z.infer<typeof Document>;

export const LegacyResultWord = z.object({
  word: z.string(),
  time_start: z.number(),
  time_end: z.number(),
  confidence: z.number(),
  speaker: z.string().nullable().optional(),
});
export const LegacyResult = z.object({
  duration: z.number(),
  filename: z.string(),
  status: z.string(),
  results: z.array(LegacyResultWord),
  speakers: z.array(z.object({ id: z.string(), name: z.string() })),
  channel: z.number().int(),
});
export type LegacyResult = z.infer<typeof LegacyResult>;

export const BatchUpload = z.object({
  file_id: z.string(),
  filename: z.string(),
  size_bytes: z.number(),
  media_type: z.string(),
});
export type BatchUpload = z.infer<typeof BatchUpload>;

export const Job = z.object({
  job_id: z.string(),
  status: JobStatus,
  created_at: timestamp,
  updated_at: timestamp,
  progress: z.number().min(0).max(100),
  estimated_completion: timestamp.nullable(),
  /** Interface choice: metadata.session_id links a job to the session that holds its documents. */
  metadata: z.looseObject({ session_id: z.string(), file_id: z.string().optional(), language: z.string().optional() }),
  error: z.string().nullable(),
});
export type Job = z.infer<typeof Job>;

export const JobResult = z.object({
  job_id: z.string(),
  session_id: z.string(),
  status: JobStatus,
  documents: z.array(Document),
});
export type JobResult = z.infer<typeof JobResult>;

export const ShareLink = z.object({
  /** Interface choice: the link's id, to list and revoke it without its token (the service keeps only a hash of that). */
  id: z.string().optional(),
  token: z.string(),
  url: z.string(),
  session_id: z.string(),
  document_id: z.string(),
  allow_editing: z.boolean(),
  allow_export: z.boolean(),
  created: timestamp,
  expires: timestamp,
  /** Interface choice: true when `url` is on this computer's loopback address, so it opens only here (the local service with no public URL set). */
  local_only: z.boolean().optional(),
});
export type ShareLink = z.infer<typeof ShareLink>;

/** Answer to revoking a magic link; revoking it again answers the same. */
export const ShareRevoked = z.object({ revoked: z.literal(true), document_id: z.string(), revoked_at: timestamp });
export type ShareRevoked = z.infer<typeof ShareRevoked>;

/** Interface choice: one live magic link of a document, as its owner sees it (never its token). */
export const ShareLinkInfo = z.object({
  id: z.string(),
  /** How it was made: asked for as a link, or sent by e-mail (to `mailed_to`). */
  via: z.enum(['link', 'email']),
  mailed_to: z.string().nullable(),
  allow_editing: z.boolean(),
  allow_export: z.boolean(),
  created: timestamp,
  expires: timestamp,
});
export type ShareLinkInfo = z.infer<typeof ShareLinkInfo>;
/** A document's live magic links, newest first (at most MAX_LIVE_SHARE_LINKS). */
export const ShareLinkList = z.object({ document_id: z.string(), links: z.array(ShareLinkInfo).max(1000) });
export type ShareLinkList = z.infer<typeof ShareLinkList>;
/** Interface choice: answer to revoking every live link of a document; `revoked` counts them (0 when there were none). */
export const SharesRevoked = z.object({ revoked: z.number().int().min(0), document_id: z.string(), revoked_at: timestamp });
export type SharesRevoked = z.infer<typeof SharesRevoked>;
/** Live magic links one document may have at once; past it, revoke some first. */
export const MAX_LIVE_SHARE_LINKS = 100;

/** Newer webhook payload (interface choice; the spec does not show it). */
export const WebhookPayload = z.object({
  delivery_id: z.string(),
  event: WebhookEvent,
  job_id: z.string(),
  session_id: z.string(),
  status: JobStatus,
  error: z.string().nullable(),
  occurred_at: timestamp,
});
export type WebhookPayload = z.infer<typeof WebhookPayload>;

/** Legacy callback body: no results, the client reads the result endpoint. */
export const LegacyWebhookPayload = z.object({ session_id: z.string(), status: z.string() });

export const LoginResponse = z.object({
  access_token: z.string().optional(),
  login: z.boolean(),
  mfa_required: z.boolean(),
  session_id: z.string().optional(),
  signature: z.string().optional(),
});
export type LoginResponse = z.infer<typeof LoginResponse>;

// List-only resources: the spec shows no fields, so these carry our choices (README).
export const Folder = z.looseObject({
  id: z.number(),
  name: z.string(),
  parent_id: z.number().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Folder = z.infer<typeof Folder>;

export const GlossaryEntry = z.object({ source: z.string().min(1), target: z.string() });
export const Glossary = z.looseObject({
  id: z.number(),
  name: z.string(),
  source_language: z.string(),
  target_language: z.string().nullable(),
  entry_count: z.number().int(),
  entries: z.array(GlossaryEntry).optional(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Glossary = z.infer<typeof Glossary>;

export const LanguagePair = z.object({ source: z.string(), target: z.string() });

/** Any other listed row: the spec shows none of its fields, so only an id is relied on. */
export const ListItem = z.looseObject({ id: z.union([z.number(), z.string()]) });

export const OkResponse = z.object({ success: z.literal(true) });
export const DeletedResponse = z.object({ deleted: z.literal(true), id: z.string() });

export const MfaQrCode = z.object({ otpauth_uri: z.string(), qr_code: z.string(), secret: z.string() });
export const MfaBackupCodes = z.object({ backup_codes: z.array(z.string()) });
export const MfaState = z.object({ two_factor_active: z.boolean() });
export const MfaVerify = z.object({ valid: z.boolean() });

export const SummarizeResult = z.object({ summary: z.string(), document: Document });
/**
 * What became of a share e-mail: sent (through the service's mail server), or, on a service with
 * none, saved as a draft (draft_path, on the service's computer) and not sent. link_url is the
 * link the message carries; local_only: it opens only on the service's computer. link_id
 * (interface choice): the mailed link's id, to find it in the document's links and revoke it.
 */
export const EmailShareResult = z.object({
  sent: z.boolean(),
  message_id: z.string().max(1000),
  delivery: z.enum(['smtp', 'draft']).optional(),
  draft_path: z.string().max(4096).optional(),
  link_url: z.string().max(4096).optional(),
  local_only: z.boolean().optional(),
  link_id: z.string().optional(),
  expires: timestamp.optional(),
});

/** Interface choice: each of the spec's translation languages for one document, and whether the installed engine can serve it (and if not, why). */
export const TranslationTargets = z.object({
  source_language: z.string(),
  languages: z.array(z.object({ code: TranslationLanguage, available: z.boolean(), reason: z.string().optional(), install: z.string().optional() })),
});
export type TranslationTargets = z.infer<typeof TranslationTargets>;
