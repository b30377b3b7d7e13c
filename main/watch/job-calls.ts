/**
 * The service calls of an item's job, each behind the uploader's fresh-token retry: submit the
 * uploaded file, make a session the service downloads itself, ask how the job is doing, and fetch
 * the finished documents.
 */
import type { z } from 'zod';
import type { Document, TranscribeBody } from '../../common/api';
import type { ApiClient } from '../api/client';
import { Fail } from './item-failure';
import type { JobSpec } from './job-spec';
import type { ItemRow } from './store';
import type { Uploader } from './upload';

export interface JobCallDeps {
  client: ApiClient;
  uploader: Uploader;
}

/** The batch transcribe request for an uploaded file under its folder's (or import's) profile. */
export function transcribeBody(item: ItemRow, spec: JobSpec): z.input<typeof TranscribeBody> {
  return {
    file_id: item.file_id!,
    language: spec.language,
    enable_diarization: spec.diarization,
    enable_timestamps: true,
    keep_source: spec.keepMedia,
    punctuation: spec.punctuation,
    allow_profanity: spec.allowProfanity,
    mask_profanity: spec.maskProfanity,
    filename: spec.filename,
    ...(spec.glossaryId !== null ? { glossary_id: spec.glossaryId } : {}),
    ...(spec.customModelId !== null ? { custom_model_id: spec.customModelId } : {}),
    ...(spec.speechEngine !== null ? { speech_engine: spec.speechEngine } : {}),
    session_mode: spec.mode,
    ...(spec.text !== null ? { transcript_text: spec.text } : {}),
  };
}

export async function submitTranscription({ client, uploader }: JobCallDeps, item: ItemRow, spec: JobSpec, signal: AbortSignal): Promise<{ jobId: string; sessionId: string }> {
  const job = await uploader.withFreshToken(() => client.call('batch.transcribe', { body: transcribeBody(item, spec) }, { signal }));
  return { jobId: job.job_id, sessionId: job.metadata.session_id };
}

/** media_source: the service downloads the media itself into a session made here (nothing is uploaded). Returns the session id. */
export async function createFromUrl({ client, uploader }: JobCallDeps, spec: JobSpec, signal: AbortSignal): Promise<string> {
  const created = await uploader.withFreshToken(() =>
    client.call(
      'sessions.create',
      {
        body: {
          language: spec.language,
          media_source: spec.mediaSource!,
          session_mode: spec.mode,
          keep_source: spec.keepMedia,
          punctuation: spec.punctuation,
          diarization: spec.diarization,
          ...(spec.speechEngine !== null ? { speech_engine: spec.speechEngine } : {}),
        },
      },
      { signal, timeoutMs: 10 * 60_000 },
    ),
  );
  return created.result.session_id;
}

export interface JobStatus {
  done: boolean;
  /** The job's session, once it is done (batch jobs only). */
  sessionId?: string;
  progress?: number;
}

/** How the item's job is doing; a failed or cancelled one throws Fail with the service's reason. */
export async function jobStatus({ client, uploader }: JobCallDeps, item: ItemRow, signal: AbortSignal): Promise<JobStatus> {
  if (!item.job_id) {
    // Legacy sessions, and a batch session found again after a lost answer, are followed by the session.
    const s = (await uploader.withFreshToken(() => client.call('sessions.get', { params: { sessionId: item.session_id! } }, { signal }))).result;
    if (s.status === 'failed' || s.status === 'dead_letter') throw new Fail(`transcription failed: ${s.error ?? s.status}`);
    return { done: s.status === 'completed' };
  }
  const job = await uploader.withFreshToken(() => client.call('batch.job', { params: { jobId: item.job_id! } }, { signal }));
  if (job.status === 'failed' || job.status === 'cancelled') throw new Fail(`transcription ${job.status}: ${job.error ?? 'no reason given'}`);
  return job.status === 'completed' ? { done: true, sessionId: job.metadata.session_id } : { done: false, progress: job.progress };
}

/** The documents of a finished item, with their content. */
export async function itemDocuments({ client, uploader }: JobCallDeps, item: ItemRow): Promise<Document[]> {
  let docs: Document[];
  if (item.job_id) {
    docs = (await uploader.withFreshToken(() => client.call('batch.jobResult', { params: { jobId: item.job_id! } }))).documents;
  } else {
    docs = [];
    for await (const d of client.items('documents.list', { params: { sessionId: item.session_id! }, query: { include_content: true } })) docs.push(d);
  }
  return Promise.all(docs.map((d) => (d.document ? d : uploader.withFreshToken(() => client.call('documents.get', { params: { sessionId: item.session_id!, documentId: d.id } })))));
}
