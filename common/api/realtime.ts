/**
 * The realtime streaming protocol (docs: the shared realtime-protocol.md): the messages of a
 * WebSocket at /api/v3/realtime, /realtime or /v2/realtime, both ways. Binary frames carry 16 kHz
 * mono s16le audio and are not described here.
 */
import { z } from 'zod';

/** The paths a client may connect to (the vendor's two and ours beside the rest of the interface). */
export const REALTIME_PATHS = ['/api/v3/realtime', '/realtime', '/v2/realtime'] as const;
/** The header that carries the API token (type realtime). */
export const REALTIME_KEY_HEADER = 'x-svc-s2t-key';

export const RealtimeClientMessage = z.discriminatedUnion('action', [z.object({ action: z.literal('start') }), z.object({ action: z.literal('stop') })]);
export type RealtimeClientMessage = z.infer<typeof RealtimeClientMessage>;

/** A word of a final: [text, start_ms, end_ms, confidence], times from the stream's first sample. */
export const RealtimeWord = z.tuple([z.string(), z.number().int().nonnegative(), z.number().int().nonnegative(), z.number().min(0).max(1)]);
export type RealtimeWord = z.infer<typeof RealtimeWord>;

/** audio_ms (our extension, on a resumed stream): the audio the session already has; send from there. */
export const RealtimeListening = z.object({ state: z.literal('listening'), session_id: z.string(), audio_ms: z.number().int().nonnegative().optional() });
export const RealtimeStopped = z.object({ state: z.literal('stopped') });
export const RealtimePartial = z.object({ partial: z.string() });
export const RealtimeResult = z.object({ result: z.array(RealtimeWord), speaker: z.string(), text: z.string() });
export const RealtimeError = z.object({ error: z.string() });

export const RealtimeServerMessage = z.union([RealtimeListening, RealtimeStopped, RealtimePartial, RealtimeResult, RealtimeError]);
export type RealtimeServerMessage = z.infer<typeof RealtimeServerMessage>;
export type RealtimeResult = z.infer<typeof RealtimeResult>;

/** Close codes the service uses, beside the standard ones (1000 normal, 1008 policy, 1009 too big, 1011 server fault). */
export const REALTIME_CLOSE = {
  normal: 1000,
  goingAway: 1001,
  badData: 1007,
  policy: 1008,
  tooBig: 1009,
  serverFault: 1011,
  tryAgainLater: 1013,
} as const;
