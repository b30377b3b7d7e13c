/**
 * How far an upload has got, as the uploads view and the watch folders both show it: one schema
 * that ImportItem (imports.ts) and WatchProgress (contract.ts) extend, since both run on the
 * same upload engine.
 */
import { z } from 'zod';

export const UploadProgress = z.object({
  bytesSent: z.number().min(0),
  bytesTotal: z.number().min(0),
  /** Upload percent while uploading, the job's progress while transcribing. */
  percent: z.number().min(0).max(100),
  /** Bytes a second over the last few seconds; null before there is a measure. */
  rate: z.number().min(0).nullable(),
  /** Seconds left for the current upload; null when unknown. */
  etaSeconds: z.number().min(0).nullable(),
  /** Why it failed, or what it waits for (offline, a rate limit), in words for a person. */
  message: z.string().nullable(),
});
export type UploadProgress = z.infer<typeof UploadProgress>;
