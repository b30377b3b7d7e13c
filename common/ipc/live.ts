/**
 * Live transcription: the renderer captures the microphone (or an output's monitor) and hands
 * 16 kHz s16le audio to main; main keeps the recording on disk, streams it to the service's
 * realtime endpoint with the account's realtime key (never seen by the renderer), and reports.
 */
import { z } from 'zod';

/** Audio crosses the bridge in pieces of at most this many bytes (a second of 16 kHz s16le). */
export const LIVE_AUDIO_MAX_BYTES = 32_000;

/** 16 kHz mono s16le samples as bytes: whole samples, at most a second. */
export const LivePcm = z
  .instanceof(Uint8Array, { message: 'live audio must be bytes' })
  .refine((b) => b.byteLength > 0 && b.byteLength <= LIVE_AUDIO_MAX_BYTES, `live audio comes in pieces of 1 to ${LIVE_AUDIO_MAX_BYTES} bytes`)
  .refine((b) => b.byteLength % 2 === 0, 'live audio must be whole 16-bit samples');

/** uploaded: the service ended the stream while it could not be reached; the whole recording went to the uploads. */
export const LiveStatus = z.enum(['idle', 'recording', 'paused', 'finishing', 'finished', 'uploaded', 'failed']);
export type LiveStatus = z.infer<typeof LiveStatus>;

/** connected: words come as they are spoken; reconnecting: recording goes on, the words catch up later. */
export const LiveConnection = z.enum(['connecting', 'connected', 'reconnecting']);
export type LiveConnection = z.infer<typeof LiveConnection>;

export const LivePhrase = z.object({ text: z.string(), startMs: z.number().int().nonnegative(), endMs: z.number().int().nonnegative() });
export type LivePhrase = z.infer<typeof LivePhrase>;

export const LiveState = z.object({
  status: LiveStatus,
  connection: LiveConnection,
  /** Audio recorded so far (on this computer). */
  recordedMs: z.number().int().nonnegative(),
  /** Audio the service has heard so far: behind recordedMs while it catches up. */
  heardMs: z.number().int().nonnegative(),
  /** Finished phrases, oldest first (the last 500). */
  phrases: z.array(LivePhrase).max(500),
  /** The phrase being spoken, as heard so far. */
  partial: z.string(),
  sessionId: z.string().nullable(),
  language: z.string(),
  /** What a person should know now (why it is reconnecting, why it failed), in words; null when all is well. */
  message: z.string().nullable(),
});
export type LiveState = z.infer<typeof LiveState>;

/** Where an account streams live audio: its own address (a cloud's realtime host) or the service's usual one. */
export const LiveAddress = z.object({
  /** The address in use. */
  url: z.string(),
  /** The account's own, when set. */
  custom: z.string().nullable(),
  /** The service's own /api/v3/realtime. */
  usual: z.string(),
  /** Only a service added by address may have one of its own. */
  editable: z.boolean(),
});
export type LiveAddress = z.infer<typeof LiveAddress>;

export const liveChannels = {
  'live.state': { args: z.object({}), result: LiveState },
  'live.start': { args: z.object({ language: z.string().min(1).max(32) }), result: LiveState },
  /** A piece of the recording, in order: bytes, never text (structured clone in Electron, a binary frame on the web bridge). */
  'live.audio': { args: z.object({ pcm: LivePcm }), result: z.object({ recordedMs: z.number().int() }) },
  'live.pause': { args: z.object({ paused: z.boolean() }), result: LiveState },
  'live.stop': { args: z.object({}), result: LiveState },
  'live.address': { args: z.object({}), result: LiveAddress },
  /** null or empty: back to the service's usual address. main checks it (wss:, no inward hosts). */
  'live.setAddress': { args: z.object({ url: z.string().max(2048).nullable() }), result: LiveAddress },
  /** Back to idle after finished, uploaded or failed (the session stays). */
  'live.reset': { args: z.object({}), result: LiveState },
} as const;
export type LiveChannelName = keyof typeof liveChannels;

export const liveEvents = {
  'live.changed': LiveState,
} as const;
