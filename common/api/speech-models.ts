/**
 * The local service's speech models (not in the cloud's interface): which speech engines are
 * installed, the Whisper models a person can download, and the downloads themselves. Only the
 * local service serves these; the app shows the model manager only when its service answers them.
 */
import { z } from 'zod';
import { route } from './route';
import type { Role } from './enums';

const LOCAL = '/api/v3/local/speech-models';
/** Installing a model changes the service for everyone on it: its developers and admins. */
const MANAGERS: readonly Role[] = ['DEVELOPER', 'ORGADMIN', 'SYSOP'];

export const SpeechModelName = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/);

export const SpeechEngine = z.object({
  /** 'pocketsphinx' or 'whisper:NAME': the value a transcription's speech_engine names. */
  id: z.string().max(80),
  label: z.string().max(120),
  punctuates: z.boolean(),
  speed_rtf: z.number().nonnegative().nullable(),
});
export type SpeechEngine = z.infer<typeof SpeechEngine>;

export const SpeechModel = z.object({
  name: SpeechModelName,
  label: z.string().max(120),
  bytes: z.number().int().nonnegative(),
  /** 'multilingual' or Whisper's language keys. */
  languages: z.union([z.literal('multilingual'), z.array(z.string().max(8)).max(200)]),
  sha1: z.string().max(40).nullable(),
  source: z.string().max(2000).nullable(),
  installed: z.boolean(),
  installed_at: z.string().nullable(),
  speed_rtf: z.number().nonnegative().nullable(),
  download: z.object({
    state: z.enum(['idle', 'downloading', 'verifying', 'paused', 'failed']),
    received: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    error: z.string().max(2000).nullable(),
  }),
});
export type SpeechModel = z.infer<typeof SpeechModel>;

export const SpeechModels = z.object({
  engines: z.array(SpeechEngine).max(100),
  models: z.array(SpeechModel).max(200),
  /** Free bytes where models are stored, for the manager's disk-space line. */
  free_bytes: z.number().int().nonnegative(),
});
export type SpeechModels = z.infer<typeof SpeechModels>;

const NameParams = z.object({ name: SpeechModelName });

export const speechModelRoutes = {
  'speechModels.list': route({
    method: 'GET', path: LOCAL, auth: 'bearer', roles: MANAGERS, summary: 'Installed speech engines, downloadable models and their downloads (local service)',
    response: { kind: 'json', schema: SpeechModels },
  }),
  'speechModels.download': route({
    method: 'POST', path: `${LOCAL}/{name}/download`, auth: 'bearer', roles: MANAGERS, idempotent: true, status: 202,
    summary: 'Start or resume a model download (507: not enough disk space)',
    params: NameParams, response: { kind: 'json', schema: SpeechModel },
  }),
  'speechModels.pause': route({
    method: 'POST', path: `${LOCAL}/{name}/pause`, auth: 'bearer', roles: MANAGERS, idempotent: true, summary: 'Pause a download; the partial file is kept',
    params: NameParams, response: { kind: 'json', schema: SpeechModel },
  }),
  'speechModels.cancel': route({
    method: 'DELETE', path: `${LOCAL}/{name}/download`, auth: 'bearer', roles: MANAGERS, summary: 'Cancel a download and remove the partial file',
    params: NameParams, response: { kind: 'json', schema: SpeechModel },
  }),
  'speechModels.delete': route({
    method: 'DELETE', path: `${LOCAL}/{name}`, auth: 'bearer', roles: MANAGERS, summary: 'Delete an installed model',
    params: NameParams, response: { kind: 'json', schema: SpeechModel },
  }),
  'speechModels.import': route({
    method: 'POST', path: `${LOCAL}/import`, auth: 'bearer', roles: MANAGERS, status: 201, idempotent: false,
    summary: 'Install a model file already on this computer (copied into the store, checked that whisper.cpp loads it)',
    body: { kind: 'json', schema: z.object({ path: z.string().min(1).max(4096), name: SpeechModelName.optional() }) },
    response: { kind: 'json', schema: SpeechModel },
  }),
} as const;
