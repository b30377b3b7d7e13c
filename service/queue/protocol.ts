/**
 * The wire between a team server's API node and its workers (service/queue/worker-routes.ts and
 * service/worker/client.ts), checked with zod at both ends. Workers authenticate with their own
 * key (`Authorization: Worker <key>`), never a user's token. Every call about a job quotes the
 * lease its claim gave; the API node refuses a lease that is no longer the job's.
 */
import { z } from 'zod';
import { MAX_TERMS } from '../engines/lexicon';
import { DocumentWork, DocumentWorkOutput } from '../jobs/document-work';
import { CaptionContent, DocumentMetadata, TranscriptContent } from '../../common/transcript/model';

export const WORKER_PREFIX = '/worker/v1';

/** A holder silent this long (workers beat every second) is looked into, and its session listed as stranded. */
export const HEARTBEAT_STALE_MS = 90_000;

/** Worker names: what `worker add NAME` accepts, and the key's first part. */
export const WorkerName = z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'a worker name is 1 to 40 lower-case letters, digits and dashes');

/** A queue entry in Redis: a job row's attempt, or a document's work (queue/document-work.ts) while its request waits. */
export const QueueEntry = z.object({ job_id: z.string().min(1).max(80), attempt_tag: z.number().int().nonnegative(), document: z.literal(true).optional() });
export type QueueEntry = z.infer<typeof QueueEntry>;

export const Capability = z.object({
  engine: z.string().min(1).max(40),
  /** Language keys (routing.ts languageKey) the engine runs here; null: any language. */
  languages: z.array(z.string().min(1).max(32)).max(200).nullable(),
  /** One speech engine on its own ('pocketsphinx', 'whisper:NAME'), for the jobs that name it. */
  speech_engine: z.string().min(1).max(100).optional(),
});
export type Capability = z.infer<typeof Capability>;

export const Hello = z.object({
  capabilities: z.array(Capability).max(100),
  machine: z.object({ cores: z.number().int().positive(), memory_mb: z.number().int().nonnegative(), free_disk_mb: z.number().int().nonnegative().nullable(), version: z.string().max(40) }),
});
export type Hello = z.infer<typeof Hello>;

/** The queues this worker takes jobs from (routing.ts queuesFor of its capabilities). */
export const HelloAnswer = z.object({ name: z.string(), queues: z.array(z.string()) });

export const ClaimRequest = z.object({ attempt_tag: z.number().int().nonnegative() });

/** What a worker needs to run the job; `gone`: the job was cancelled, finished, or this queue entry is stale. */
export const ClaimAnswer = z.discriminatedUnion('status', [
  z.object({ status: z.literal('gone'), reason: z.string() }),
  z.object({
    status: z.literal('claimed'),
    lease: z.string().min(16),
    kind: z.enum(['decode', 'align', 'upload']),
    language: z.string(),
    diarization: z.boolean(),
    mask_profanity: z.boolean().default(false),
    /** Offensive words may be recognised (engines/profanity.ts); otherwise the decoder leaves them out. */
    allow_profanity: z.boolean().default(false),
    /** The glossary's terms the decoder hears (engines/lexicon.ts), read on the API node: a worker holds no database. */
    glossary_terms: z.array(z.string().min(1).max(10_000)).max(MAX_TERMS).default([]),
    /** The speech engine the caller chose (engines/registry.ts); null: the best one installed on the worker. */
    speech_engine: z.string().max(100).nullable().default(null),
    punctuation: z.boolean(),
    /** The session has media to fetch (GET …/media), and its type. */
    has_media: z.boolean(),
    media_type: z.string().nullable(),
    keep_media: z.boolean(),
    needs_waveform: z.boolean(),
    /** align: the given text; upload: the given document, when it is not the media itself. */
    text: z.string().nullable(),
    max_media_seconds: z.number().positive(),
  }),
]);
export type ClaimAnswer = z.infer<typeof ClaimAnswer>;
export type Claimed = Extract<ClaimAnswer, { status: 'claimed' }>;

/** The media's length, measured by the worker before it converts anything: charged to the organization's processing quota once per job. */
export const ChargeRequest = z.object({ lease: z.string(), duration_sec: z.number().nonnegative().max(1e7) });
/** over: why the job may not run (the month's limit would be passed); null: charged, or charged before. */
export const ChargeAnswer = z.object({ over: z.string().nullable() });

export const Progress = z.object({ lease: z.string(), percent: z.number().min(0).max(100), estimated_completion: z.iso.datetime().optional(), duration_sec: z.number().nonnegative().optional() });
/** keep: false when the job was cancelled or taken over; the worker stops its engine. */
export const ProgressAnswer = z.object({ keep: z.boolean() });

/** media/waveform.ts's peaks; 12 hours of media (the longest a job takes) is 8.64 million numbers. */
export const Waveform = z.object({
  version: z.literal(2),
  channels: z.literal(1),
  sample_rate: z.number().int().positive(),
  samples_per_pixel: z.number().int().positive(),
  bits: z.literal(8),
  length: z.number().int().nonnegative(),
  data: z.array(z.number().int().min(-128).max(127)).max(9_000_000),
});

export const ResultRequest = z.object({
  lease: z.string(),
  duration_sec: z.number().nonnegative().nullable(),
  waveform: Waveform.nullable(),
  transcript: TranscriptContent,
  captions: CaptionContent.optional(),
  metadata: DocumentMetadata,
});
export type ResultRequest = z.infer<typeof ResultRequest>;

export const FailureRequest = z.object({ lease: z.string(), message: z.string().max(2000), permanent: z.boolean(), duration_sec: z.number().nonnegative().nullable() });

/** applied: stored now; duplicate: this lease's outcome was stored before (a resend); refused otherwise (409). */
export const OutcomeAnswer = z.object({ outcome: z.enum(['applied', 'duplicate']) });

/** A document's translation or summary (jobs/document-work.ts), held by a worker under a lease as a job is. */
export const WorkClaimAnswer = z.discriminatedUnion('status', [
  z.object({ status: z.literal('gone'), reason: z.string() }),
  z.object({ status: z.literal('claimed'), lease: z.string().min(16), work: DocumentWork }),
]);
export const WorkLease = z.object({ lease: z.string() });
export const WorkResult = z.object({ lease: z.string(), output: DocumentWorkOutput });
/** The engine's refusal as the route would answer it on one machine (status, code, words). */
export const WorkFailure = z.object({ lease: z.string(), status: z.number().int().min(400).max(599), code: z.string().max(60), message: z.string().max(2000) });
