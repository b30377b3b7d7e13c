/**
 * Every endpoint of the spec, with our choices where the spec says "not shown" (README:
 * Interface choices). The client (main/api) and the service (service/) are both driven by this
 * table, so the two sides cannot drift apart.
 */
import { speechModelRoutes } from './speech-models';
import { z } from 'zod';
import { DocumentBody } from '../transcript/model';
import { envelope, ListQuery, single, wrapped } from './envelope';
import { ExportFormat, JobStatus, SessionMode, TokenType, TranslationLanguage, WebhookEvent, YearsValid, type Role } from './enums';
import {
  ApiToken,
  BatchUpload,
  CurrentUser,
  DeletedResponse,
  Document,
  EmailShareResult,
  Folder,
  Glossary,
  GlossaryEntry,
  Job,
  JobResult,
  LanguageModel,
  LanguagePair,
  LegacyCreateResult,
  LegacyResult,
  ListItem,
  LoginResponse,
  MfaBackupCodes,
  MfaQrCode,
  MfaState,
  MfaVerify,
  OkResponse,
  Session,
  ShareLink,
  ShareLinkList,
  ShareRevoked,
  SharesRevoked,
  SummarizeResult,
  TranslationTargets,
} from './resources';
import { route } from './route';
import { parseWebhookHeaders } from './webhook-headers';

const id = z.string().min(1).max(128);
const numericId = z.coerce.number().int().min(1);
const formBool = z.preprocess((v) => (v === 'true' || v === '1' || v === true ? true : v === 'false' || v === '0' || v === false || v === '' ? false : v), z.boolean());
const queryBool = formBool.optional();
const SessionParams = z.object({ sessionId: id });
const DocParams = z.object({ sessionId: id, documentId: id });
const Binary = z.instanceof(Uint8Array);
/** A multipart form; its parts are named in the route summary (FormData is not in common's lib). */
const Multipart = z.unknown();

const BASE = '/api/v3';
const STT = `${BASE}/speech-to-text`;
const DOC = `${STT}/session/{sessionId}/document/{documentId}`;
/** The tus endpoint: POST creates an upload; HEAD, PATCH and DELETE act on `${TUS_PATH}/{id}`. */
export const TUS_PATH = `${BASE}/batch/upload/tus`;
/** tus speaks in headers (Tus-Resumable, Upload-Length, Upload-Offset, Upload-Checksum); its answers have empty bodies. */
const TusAnswer = { kind: 'binary', schema: Binary } as const;
const TusParams = z.object({ id });

/**
 * A session's new name (its filename): one line of text. Control characters would break the
 * list, file names made from it and the exports' headers, so they are refused, not stripped.
 */
const SessionRenameBody = z.object({
  filename: z.string().trim().min(1, 'give the session a name').max(255).refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'a name cannot hold line breaks or control characters'),
});

const LoginForm = z.object({
  username: z.string().min(1).max(320),
  password: z.string().min(1).max(1024),
  remember_me: formBool.optional(),
});

/**
 * The spec sends one code in both totp_code and backup_code; a client that fills only one is
 * understood too, so each is optional but at least one must carry a value.
 */
const MfaLoginForm = LoginForm.extend({ totp_code: z.string().max(64).optional(), backup_code: z.string().max(64).optional() }).refine(
  (f) => Boolean(f.totp_code?.trim() || f.backup_code?.trim()),
  { message: 'totp_code or backup_code is required', path: ['totp_code'] },
);

/** keep_source: keep a playable copy of the media; punctuation: see service/engines/punctuate.ts. The legacy create and the batch transcribe share them. */
const SourceOptions = { keep_source: z.boolean().default(false), punctuation: z.boolean().default(false) };

export const LegacyCreateBody = z
  .object({
    language: z.string().min(1).max(32),
    webhook_url: z.url({ protocol: /^https?$/ }).optional(),
    webhook_method: z.enum(['POST', 'PUT']).optional(),
    webhook_headers: z.array(z.string().max(1024)).max(32).optional(),
    ...SourceOptions,
    media_source: z.url({ protocol: /^https?$/ }).optional(),
    meta_data: z.record(z.string(), z.string()).optional(),
    /** Interface choice: decode (default), align or upload. */
    session_mode: SessionMode.optional(),
    diarization: z.boolean().optional(),
    /** Local service: the speech engine for the job media_source starts (as batch transcribe's). */
    speech_engine: z.string().max(80).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.speech_engine && !b.media_source) ctx.addIssue({ code: 'custom', path: ['speech_engine'], message: 'speech_engine goes with media_source (or with batch transcribe)' });
    if (!b.webhook_url && (b.webhook_method || b.webhook_headers)) {
      ctx.addIssue({ code: 'custom', message: 'webhook_method and webhook_headers require webhook_url' });
    }
    const headers = b.webhook_headers ? parseWebhookHeaders(b.webhook_headers) : null;
    if (headers && 'error' in headers) ctx.addIssue({ code: 'custom', path: ['webhook_headers'], message: headers.error });
  });
export type LegacyCreateBody = z.input<typeof LegacyCreateBody>;

export const TranscribeBody = z
  .object({
    file_id: id,
    language: z.string().min(1).max(32),
    enable_diarization: z.boolean().optional(),
    /** Old names, accepted as enable_diarization. */
    speaker_labels: z.boolean().optional(),
    speaker_detection: z.boolean().optional(),
    enable_timestamps: z.boolean().optional(),
    glossary_id: z.union([z.string(), z.number()]).optional(),
    custom_model_id: z.union([z.string(), z.number()]).optional(),
    /** Local service: the speech engine to run ('pocketsphinx' or 'whisper:NAME', see speechModels.list); the best installed one that serves the language when absent. */
    speech_engine: z.string().max(80).optional(),
    webhook_url: z.url({ protocol: /^https?$/ }).optional(),
    webhook_secret: z.string().min(8).max(256).optional(),
    webhook_events: z.array(WebhookEvent).optional(),
    /** Interface choice: align with a given text, or upload a finished document. */
    session_mode: SessionMode.optional(),
    transcript_text: z.string().max(5_000_000).optional(),
    filename: z.string().max(255).optional(),
    /** Interface choice: offensive words may be recognised (by default the local engine leaves them out of what it can hear). */
    allow_profanity: z.boolean().optional(),
    /** Interface choice: offensive words in the documents are masked ("s***"), for any engine and language with a word list. */
    mask_profanity: z.boolean().optional(),
    /** Interface choice: the legacy create's keep_source and punctuation, with the same meaning and default. */
    ...SourceOptions,
  })
  .transform(({ speaker_labels, speaker_detection, ...rest }) => ({
    ...rest,
    enable_diarization: rest.enable_diarization ?? speaker_labels ?? speaker_detection ?? false,
  }));

export const DocumentUpdateBody = z.object({
  filename: z.string().min(1).max(255).optional(),
  document: DocumentBody.optional(),
  plain_document_changed: z.enum(['true', 'false']).optional(),
  /** Interface choice: timecode offset and finished flag are updatable too. */
  timecode_offset: z.string().regex(/^\d{2}:\d{2}:\d{2}[:;]\d{2}$/).optional(),
});
export type DocumentUpdateBody = z.input<typeof DocumentUpdateBody>;

export const ExportQuery = z.object({
  /** Caption writers: speaker names as a prefix, or VTT voice tags. */
  speakers: z.enum(['none', 'prefix', 'voice']).optional(),
  timestamps: queryBool,
  profile: z.string().max(32).optional(),
  frame_rate: z.coerce.number().positive().max(120).optional(),
});

/** Who may read the role-guarded lists (README: Interface choices); SYSOP may read them all. */
const SYSOP: readonly Role[] = ['SYSOP'];
const RESELLER: readonly Role[] = ['RESELLER', 'SYSOP'];
const ORGADMIN: readonly Role[] = ['ORGADMIN', 'SYSOP'];

/** A paged list; its rows are typed by `item` (ListItem, an object with an id, when the spec leaves them open). */
function listRoute<I extends z.ZodType = typeof ListItem>(path: string, summary: string, opts: { auth?: 'bearer' | 's2t-key'; item?: I; roles?: readonly Role[] } = {}) {
  const item = (opts.item ?? ListItem) as I;
  return route({ method: 'GET', path, auth: opts.auth ?? 'bearer', query: ListQuery, response: { kind: 'json', schema: envelope(item) }, paged: 'envelope', roles: opts.roles, summary });
}

export const routes = {
  // --- Authentication and account -----------------------------------------------------------
  'auth.login': route({
    method: 'POST', path: `${BASE}/auth/login`, auth: 'none', summary: 'Log in with username and password',
    query: z.object({ login_type: z.literal('token') }),
    body: { kind: 'form', schema: LoginForm },
    response: { kind: 'json', schema: LoginResponse },
  }),
  'auth.loginMfa': route({
    method: 'POST', path: `${BASE}/auth/login/mfa`, auth: 'none', summary: 'Complete a login with a TOTP or backup code',
    query: z.object({ login_type: z.literal('token') }),
    body: { kind: 'form', schema: MfaLoginForm },
    response: { kind: 'json', schema: LoginResponse },
  }),
  'auth.sso': route({
    method: 'GET', path: `${BASE}/auth/login/microsoft`, auth: 'none', summary: 'Start single sign-on; redirects back to redirect_uri with the token',
    query: z.object({ redirect_uri: z.string().min(1).max(2048), state: z.string().max(512).optional() }),
    response: { kind: 'redirect', schema: z.unknown() },
  }),
  'auth.logout': route({
    method: 'POST', path: `${BASE}/auth/logout`, auth: 'bearer', summary: 'Invalidate the current session',
    response: { kind: 'json', schema: OkResponse }, idempotent: true,
  }),
  'account.me': route({
    method: 'GET', path: `${BASE}/account/me`, auth: 'bearer', summary: 'The current user',
    response: { kind: 'json', schema: wrapped(CurrentUser) },
  }),
  'tokens.list': route({
    method: 'GET', path: `${BASE}/tokens`, auth: 'bearer', summary: 'API tokens (nested envelope, as the spec shows)',
    query: ListQuery, response: { kind: 'json', schema: wrapped(envelope(ApiToken)) }, paged: 'nested-envelope',
  }),
  'tokens.create': route({
    method: 'POST', path: `${BASE}/tokens`, auth: 'bearer', summary: 'Create an API token; token_value is shown only here',
    body: { kind: 'json', schema: z.object({ name: z.string().min(1).max(100), type: TokenType, years_valid: YearsValid }) },
    response: { kind: 'json', schema: ApiToken }, status: 201,
  }),
  'tokens.delete': route({
    method: 'DELETE', path: `${BASE}/tokens/{tokenId}`, auth: 'bearer', summary: 'Delete an API token',
    params: z.object({ tokenId: id }), response: { kind: 'json', schema: OkResponse },
  }),
  'mfa.qrCode': route({
    method: 'GET', path: `${BASE}/mfa/2fa/qr_code`, auth: 'bearer', summary: 'A new pending TOTP secret as otpauth URI and PNG data URL',
    response: { kind: 'json', schema: wrapped(MfaQrCode) }, idempotent: false,
  }),
  'mfa.backupCodes': route({
    method: 'GET', path: `${BASE}/mfa/2fa/backup_codes`, auth: 'bearer', summary: 'Ten new single-use backup codes (old ones stop working); needs a current TOTP code',
    query: z.object({ totp_code: z.string().min(1).max(16) }), response: { kind: 'json', schema: wrapped(MfaBackupCodes) }, idempotent: false,
  }),
  'mfa.enable': route({
    method: 'POST', path: `${BASE}/mfa/2fa/enable`, auth: 'bearer', summary: 'Turn two-factor on with a code from the pending secret',
    query: z.object({ totp_code: z.string().min(1).max(16) }), response: { kind: 'json', schema: wrapped(MfaState) },
  }),
  'mfa.disable': route({
    method: 'POST', path: `${BASE}/mfa/2fa/disable`, auth: 'bearer', summary: 'Turn two-factor off with a current TOTP (token) or a backup code',
    query: z.object({ token: z.string().max(16), backup_code: z.string().max(64) }), response: { kind: 'json', schema: wrapped(MfaState) },
  }),
  'mfa.verifyTotp': route({
    method: 'POST', path: `${BASE}/mfa/2fa/verify_totp`, auth: 'bearer', summary: 'Check a TOTP code',
    body: { kind: 'json', schema: z.object({ totp_code: z.string().min(1).max(16) }) }, response: { kind: 'json', schema: wrapped(MfaVerify) },
  }),
  'mfa.verifyBackupCode': route({
    method: 'POST', path: `${BASE}/mfa/2fa/verify_backup_code`, auth: 'bearer', summary: 'Check (and use up) a backup code',
    body: { kind: 'json', schema: z.object({ backup_code: z.string().min(1).max(64) }) }, response: { kind: 'json', schema: wrapped(MfaVerify) },
  }),

  // --- Language models and glossaries -------------------------------------------------------
  'models.list': route({
    method: 'GET', path: `${STT}/models`, auth: 's2t-key', summary: 'Language models (needs content-type application/json)',
    query: z.object({ filter: z.string().max(100).optional() }), response: { kind: 'json', schema: envelope(LanguageModel) },
  }),
  'glossaries.supportedLanguages': route({
    method: 'GET', path: '/api/v4/glossaries/supported-languages', auth: 'bearer', summary: 'Glossary language pairs',
    response: { kind: 'json', schema: envelope(LanguagePair) },
  }),
  'glossaries.list': listRoute('/api/v4/glossaries', 'Glossaries of the organization', { item: Glossary }),
  'glossaries.get': route({
    method: 'GET', path: '/api/v4/glossaries/{id}', auth: 'bearer', summary: 'A glossary, with entries on request',
    params: z.object({ id: numericId }), query: z.object({ include_entries: queryBool, limit: z.coerce.number().int().min(1).max(10000).optional() }),
    response: { kind: 'json', schema: single(Glossary) },
  }),
  'glossaries.create': route({
    method: 'POST', path: '/api/v4/glossaries', auth: 'bearer', summary: 'Create a glossary',
    body: { kind: 'json', schema: z.object({ name: z.string().min(1).max(200), source_language: z.string().min(1).max(32), target_language: z.string().max(32).nullable().optional(), entries: z.array(GlossaryEntry).max(10000).optional() }) },
    response: { kind: 'json', schema: single(Glossary) }, status: 201,
  }),
  'glossaries.update': route({
    method: 'PUT', path: '/api/v4/glossaries/{id}', auth: 'bearer', summary: 'Update a glossary (entries replace the old ones)',
    params: z.object({ id: numericId }),
    body: { kind: 'json', schema: z.object({ name: z.string().min(1).max(200).optional(), target_language: z.string().max(32).nullable().optional(), entries: z.array(GlossaryEntry).max(10000).optional() }) },
    response: { kind: 'json', schema: single(Glossary) },
  }),
  'glossaries.delete': route({
    method: 'DELETE', path: '/api/v4/glossaries/{id}', auth: 'bearer', summary: 'Delete a glossary',
    params: z.object({ id: numericId }), response: { kind: 'json', schema: OkResponse },
  }),

  // --- Folders (list plus CRUD) -------------------------------------------------------------
  'folders.list': listRoute(`${BASE}/folders`, 'Folders', { item: Folder }),
  'folders.create': route({
    method: 'POST', path: `${BASE}/folders`, auth: 'bearer', summary: 'Create a folder',
    body: { kind: 'json', schema: z.object({ name: z.string().min(1).max(200), parent_id: z.number().int().nullable().optional() }) },
    response: { kind: 'json', schema: single(Folder) }, status: 201,
  }),
  'folders.get': route({
    method: 'GET', path: `${BASE}/folders/{id}`, auth: 'bearer', summary: 'A folder',
    params: z.object({ id: numericId }), response: { kind: 'json', schema: single(Folder) },
  }),
  'folders.update': route({
    method: 'PUT', path: `${BASE}/folders/{id}`, auth: 'bearer', summary: 'Rename or move a folder',
    params: z.object({ id: numericId }),
    body: { kind: 'json', schema: z.object({ name: z.string().min(1).max(200).optional(), parent_id: z.number().int().nullable().optional() }) },
    response: { kind: 'json', schema: single(Folder) },
  }),
  'folders.delete': route({
    method: 'DELETE', path: `${BASE}/folders/{id}`, auth: 'bearer', summary: 'Delete a folder',
    params: z.object({ id: numericId }), response: { kind: 'json', schema: OkResponse },
  }),

  // --- Other list endpoints -----------------------------------------------------------------
  'subscriptions.list': listRoute(`${BASE}/subscriptions`, 'Subscriptions'),
  'subscription.list': listRoute(`${BASE}/subscription`, 'The current subscription'),
  'invoices.list': listRoute(`${BASE}/invoices`, 'Invoices'),
  'customModels.list': listRoute(`${BASE}/custom_models`, 'Custom models'),
  'reseller.customers': listRoute(`${BASE}/reseller/customer`, 'Reseller customers', { roles: RESELLER }),
  'reseller.plans': listRoute(`${BASE}/reseller/plan`, 'Reseller plans', { roles: RESELLER }),
  'userPreferences.list': listRoute(`${BASE}/user_preferences`, 'User preferences'),
  'mandates.list': listRoute(`${BASE}/mandates`, 'Mandates'),
  'organization.users': listRoute(`${BASE}/organization/user`, 'Users of the organization', { roles: ORGADMIN }),
  'organization.groups': listRoute(`${BASE}/organization/group`, 'Teams of the organization', { roles: ORGADMIN }),
  'organization.groupUsers': route({
    method: 'GET', path: `${BASE}/organization/group/{id}/users`, auth: 'bearer', summary: 'Users of a team',
    params: z.object({ id: numericId }), query: ListQuery, response: { kind: 'json', schema: envelope(ListItem) }, paged: 'envelope', roles: ORGADMIN,
  }),
  'admin.customers': listRoute(`${BASE}/admin/customer`, 'Admin: customers', { roles: SYSOP }),
  'admin.plans': listRoute(`${BASE}/admin/plan`, 'Admin: plans', { roles: SYSOP }),
  'admin.billing': listRoute(`${BASE}/admin/billing`, 'Admin: billing', { roles: SYSOP }),
  'admin.languageConfig': listRoute(`${BASE}/admin/languageconfig`, 'Admin: language configuration', { roles: SYSOP }),
  'admin.usage': listRoute(`${BASE}/admin/usage`, 'Admin: usage', { roles: SYSOP }),
  'admin.usageTraffic': listRoute(`${BASE}/admin/usage/traffic`, 'Admin: usage traffic', { roles: SYSOP }),
  'admin.stranded': listRoute(`${BASE}/admin/stranded`, 'Admin: stranded sessions', { roles: SYSOP }),
  'admin.priorityQueue': listRoute(`${BASE}/admin/priority-queue`, 'Admin: priority queue', { roles: SYSOP }),

  // --- Sessions -----------------------------------------------------------------------------
  'sessions.list': listRoute(`${STT}/session`, 'Sessions of the organization', { item: Session }),
  'sessions.create': route({
    method: 'POST', path: `${STT}/session`, auth: 's2t-key', summary: 'Legacy create (optionally downloading media_source)',
    body: { kind: 'json', schema: LegacyCreateBody }, response: { kind: 'json', schema: single(LegacyCreateResult) },
  }),
  'sessions.get': route({
    method: 'GET', path: `${STT}/session/{sessionId}`, auth: 'bearer', summary: 'A session',
    params: SessionParams, response: { kind: 'json', schema: single(Session) },
  }),
  'sessions.shared': route({
    method: 'GET', path: `${STT}/session/{sessionId}/shared`, auth: 'magic-link', summary: 'A session read through a magic link',
    params: SessionParams, query: z.object({ token: z.string().min(1).max(512) }), response: { kind: 'json', schema: single(Session) },
  }),
  'sessions.upload': route({
    method: 'PUT', path: `${STT}/session/{sessionId}`, auth: 's2t-key', summary: 'Legacy media upload (x-filename header, audio/* or video/* body)',
    params: SessionParams, body: { kind: 'media', schema: Binary }, response: { kind: 'json', schema: single(Session) },
  }),
  'sessions.align': route({
    method: 'POST', path: `${STT}/session/{sessionId}/align`, auth: 's2t-key', summary: 'Legacy align: multipart media + transcript',
    params: SessionParams, body: { kind: 'multipart', schema: Multipart }, response: { kind: 'json', schema: single(Session) },
  }),
  'sessions.result': route({
    method: 'GET', path: `${STT}/session/{sessionId}/result`, auth: 's2t-key', summary: 'Legacy result record',
    params: SessionParams, response: { kind: 'json', schema: LegacyResult },
  }),
  'sessions.delete': route({
    method: 'DELETE', path: `${STT}/session/{sessionId}`, auth: 's2t-key', summary: 'Legacy delete: erases filename and transcript',
    params: SessionParams, response: { kind: 'json', schema: single(Session) },
  }),
  'sessions.rename': route({
    method: 'PATCH', path: `${STT}/session/{sessionId}`, auth: 'bearer', summary: 'Rename a session (not in the spec: it names no way to change a session; docs/service.md)',
    params: SessionParams, body: { kind: 'json', schema: SessionRenameBody }, response: { kind: 'json', schema: single(Session) },
  }),
  'sessions.media': route({
    method: 'GET', path: `${STT}/session/{sessionId}/media`, auth: 'signed', summary: 'The kept media (range requests); media_url is this, signed; a shared page\'s link also names its magic link (share), which must still be live',
    params: SessionParams, query: z.object({ exp: z.string().max(32), sig: z.string().max(128), share: z.string().max(64).optional() }), response: { kind: 'binary', schema: Binary },
  }),
  'sessions.waveform': route({
    method: 'GET', path: `${STT}/session/{sessionId}/waveform`, auth: 'signed', summary: 'Waveform peaks in audiowaveform JSON; wave_info_url is this, signed',
    params: SessionParams, query: z.object({ exp: z.string(), sig: z.string() }),
    response: { kind: 'json', schema: z.object({ version: z.number(), channels: z.number(), sample_rate: z.number(), samples_per_pixel: z.number(), bits: z.number(), length: z.number(), data: z.array(z.number()) }) },
  }),

  // --- Documents ----------------------------------------------------------------------------
  'documents.list': route({
    method: 'GET', path: `${STT}/session/{sessionId}/document`, auth: 'bearer', summary: 'Documents of a session (content with include_content=true)',
    params: SessionParams, query: ListQuery.extend({ include_content: queryBool }), response: { kind: 'json', schema: envelope(Document) }, paged: 'envelope',
  }),
  'documents.get': route({
    method: 'GET', path: DOC, auth: 'bearer', summary: 'A document; direct_download=true gives a signed download_url instead of content',
    params: DocParams, query: z.object({ direct_download: queryBool }), response: { kind: 'json', schema: Document },
  }),
  'documents.download': route({
    method: 'GET', path: `${STT}/download/{token}`, auth: 'signed', summary: 'Direct download of a document body (target of download_url)',
    params: z.object({ token: z.string().min(1).max(2048) }), response: { kind: 'json', schema: Document },
  }),
  'documents.update': route({
    method: 'PUT', path: DOC, auth: 'bearer', summary: 'Update a document; If-Match with the last ETag gives 412 when it changed since',
    params: DocParams, body: { kind: 'json', schema: DocumentUpdateBody }, response: { kind: 'json', schema: Document },
  }),
  'documents.delete': route({
    method: 'DELETE', path: DOC, auth: 'bearer', summary: 'Delete a document',
    params: DocParams, response: { kind: 'json', schema: DeletedResponse },
  }),
  'documents.copy': route({
    method: 'POST', path: `${STT}/session/{sessionId}/document`, auth: 'bearer', summary: 'Copy a document within its session',
    params: SessionParams, body: { kind: 'json', schema: z.object({ source_document_id: id, new_filename: z.string().min(1).max(255) }) },
    response: { kind: 'json', schema: Document },
  }),
  'documents.merge': route({
    method: 'POST', path: `${STT}/merge`, auth: 'bearer', summary: 'Merge documents (in the given order) into a new one in the first one\'s session',
    body: { kind: 'json', schema: z.object({ document_ids: z.array(id).min(2).max(100), output_filename: z.string().min(1).max(255) }) },
    response: { kind: 'json', schema: Document },
  }),
  'documents.summarize': route({
    method: 'POST', path: `${DOC}/export/summarize`, auth: 'bearer', summary: 'Extractive summary, stored in the document',
    params: DocParams, response: { kind: 'json', schema: SummarizeResult }, idempotent: true,
  }),
  'documents.resetToOriginal': route({
    method: 'PUT', path: `${DOC}/reset_to_original`, auth: 'bearer', summary: 'Back to the engine\'s original',
    params: DocParams, response: { kind: 'json', schema: Document },
  }),
  'documents.clearText': route({
    method: 'PUT', path: `${DOC}/clear_text`, auth: 'bearer', summary: 'Empty the words, keep the segments\' times',
    params: DocParams, response: { kind: 'json', schema: Document },
  }),
  'documents.finishedStatus': route({
    method: 'POST', path: `${DOC}/finished_status`, auth: 'bearer', summary: 'Set the finished flag',
    params: DocParams, query: z.object({ status: formBool }), response: { kind: 'json', schema: Document }, idempotent: true,
  }),
  'documents.share': route({
    method: 'POST', path: `${DOC}/share`, auth: 'bearer', summary: 'Create a magic link',
    params: DocParams, body: { kind: 'json', schema: z.object({ allow_editing: z.boolean(), allow_export: z.boolean() }) },
    response: { kind: 'json', schema: ShareLink },
  }),
  'documents.shareList': route({
    method: 'GET', path: `${DOC}/share`, auth: 'bearer', summary: 'The document\'s live magic links (how made, rights, expiry, to whom mailed), never their tokens',
    params: DocParams, response: { kind: 'json', schema: ShareLinkList },
  }),
  'documents.shareRevoke': route({
    method: 'DELETE', path: `${DOC}/share/{token}`, auth: 'bearer', summary: 'Revoke a magic link of this document by its id (or its token); it then gets 401 on every shared route and its media links stop',
    params: DocParams.extend({ token: z.string().min(1).max(512) }), response: { kind: 'json', schema: ShareRevoked },
  }),
  'documents.shareRevokeAll': route({
    method: 'DELETE', path: `${DOC}/share`, auth: 'bearer', summary: 'Revoke every live magic link of this document, mailed ones included',
    params: DocParams, response: { kind: 'json', schema: SharesRevoked },
  }),
  'documents.shareEmail': route({
    method: 'POST', path: `${DOC}/share/email`, auth: 'bearer', summary: 'Send a magic link by e-mail',
    params: DocParams, body: { kind: 'json', schema: z.object({ email: z.email(), message: z.string().max(5000) }) },
    response: { kind: 'json', schema: EmailShareResult },
  }),
  'documents.export': route({
    method: 'GET', path: `${DOC}/export/{format}`, auth: 'bearer', summary: 'Render the document in an export format',
    params: DocParams.extend({ format: ExportFormat }), query: ExportQuery, response: { kind: 'binary', schema: Binary },
  }),
  'documents.translate': route({
    method: 'POST', path: `${DOC}/translate`, auth: 'bearer', summary: 'Translate into a new document (501 when no engine is installed)',
    params: DocParams, body: { kind: 'json', schema: z.object({ target_language: TranslationLanguage }) },
    response: { kind: 'json', schema: Document },
  }),
  'documents.translateTargets': route({
    method: 'GET', path: `${DOC}/translate`, auth: 'bearer', summary: 'The spec\'s translation languages for this document, each marked available or not (with the reason) by the installed engine',
    params: DocParams, response: { kind: 'json', schema: TranslationTargets },
  }),
  'shared.document': route({
    method: 'GET', path: `${DOC}/shared`, auth: 'magic-link', summary: 'A document read through a magic link',
    params: DocParams, query: z.object({ token: z.string().min(1).max(512) }), response: { kind: 'json', schema: Document },
  }),
  'shared.update': route({
    method: 'PUT', path: `${DOC}/shared`, auth: 'magic-link', summary: 'Edit through a magic link that allows editing',
    params: DocParams, query: z.object({ token: z.string().min(1).max(512) }), body: { kind: 'json', schema: DocumentUpdateBody },
    response: { kind: 'json', schema: Document },
  }),
  'shared.export': route({
    method: 'GET', path: `${DOC}/shared/export/{format}`, auth: 'magic-link', summary: 'Export through a magic link that allows exporting',
    params: DocParams.extend({ format: ExportFormat }), query: ExportQuery.extend({ token: z.string().min(1).max(512) }),
    response: { kind: 'binary', schema: Binary },
  }),

  // --- Batch v3 -----------------------------------------------------------------------------
  'batch.upload': route({
    method: 'POST', path: `${BASE}/batch/upload`, auth: 'bearer', summary: 'Multipart upload, field file',
    body: { kind: 'multipart', schema: Multipart }, response: { kind: 'json', schema: BatchUpload },
  }),
  'batch.transcribe': route({
    method: 'POST', path: `${BASE}/batch/transcribe`, auth: 'bearer', summary: 'Start a job for an uploaded file',
    body: { kind: 'json', schema: TranscribeBody }, response: { kind: 'json', schema: Job },
  }),
  'batch.job': route({
    method: 'GET', path: `${BASE}/batch/jobs/{jobId}`, auth: 'bearer', summary: 'A job',
    params: z.object({ jobId: id }), response: { kind: 'json', schema: Job },
  }),
  'batch.jobResult': route({
    method: 'GET', path: `${BASE}/batch/jobs/{jobId}/result`, auth: 'bearer', summary: 'The documents a completed job made',
    params: z.object({ jobId: id }), response: { kind: 'json', schema: JobResult },
  }),
  'batch.jobCancel': route({
    method: 'POST', path: `${BASE}/batch/jobs/{jobId}/cancel`, auth: 'bearer', summary: 'Cancel a pending or processing job',
    params: z.object({ jobId: id }), response: { kind: 'json', schema: Job }, idempotent: true,
  }),
  // tus 1.0 (core, creation, creation-with-upload, termination, expiration, checksum); the upload id is the file_id.
  // The service serves these through @tus/server (service/batch/tus.ts), not handle(): the protocol lives in headers.
  'batch.tusCreate': route({
    method: 'POST', path: TUS_PATH, auth: 'bearer', summary: 'tus creation: Upload-Length and Upload-Metadata; a body makes it creation-with-upload; 201 with Location',
    body: { kind: 'octet-stream', schema: Binary }, response: TusAnswer,
  }),
  'batch.tusOffset': route({
    method: 'HEAD', path: `${TUS_PATH}/{id}`, auth: 'bearer', summary: 'tus: how much of an upload has arrived (Upload-Offset)',
    params: TusParams, response: TusAnswer,
  }),
  'batch.tusPatch': route({
    method: 'PATCH', path: `${TUS_PATH}/{id}`, auth: 'bearer', summary: 'tus: append bytes at Upload-Offset (Upload-Checksum optional; a mismatch is 460)',
    params: TusParams, body: { kind: 'octet-stream', schema: Binary }, response: TusAnswer,
  }),
  'batch.tusDelete': route({
    method: 'DELETE', path: `${TUS_PATH}/{id}`, auth: 'bearer', summary: 'tus termination: drop an upload',
    params: TusParams, response: TusAnswer,
  }),
  ...speechModelRoutes,
} as const;

export type Routes = typeof routes;
export type RouteId = keyof Routes;
export { JobStatus };
