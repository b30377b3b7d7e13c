/**
 * Playback: where a session's media plays from. main answers with a URL the renderer's media
 * element can load (the file on this computer, the app's kept copy, or the service's link), or
 * with the reason there is nothing to play, in words for a person.
 */
import { z } from 'zod';

export const MediaKind = z.enum(['audio', 'video']);
export type MediaKind = z.infer<typeof MediaKind>;

/** local: the file the session was made from; cache: the app's kept copy; service: the service's link. */
export const MediaOrigin = z.enum(['local', 'cache', 'service']);
export type MediaOrigin = z.infer<typeof MediaOrigin>;

export const MediaSource = z.union([
  z.object({ url: z.string().min(1), kind: MediaKind, origin: MediaOrigin }),
  z.object({ url: z.null(), reason: z.string().min(1) }),
]);
export type MediaSource = z.infer<typeof MediaSource>;

/** Waveform peaks, one byte (0..255) each, `perSecond` of them, base64 (a 3-hour file is about 1 MB); or why there are none. */
export const MediaPeaks = z.union([
  z.object({ peaks: z.string(), perSecond: z.number().int().positive(), from: MediaOrigin }),
  z.object({ peaks: z.null(), reason: z.string().min(1) }),
]);
export type MediaPeaks = z.infer<typeof MediaPeaks>;

export const mediaChannels = {
  'media.source': { args: z.object({ sessionId: z.string().min(1) }), result: MediaSource },
  'media.peaks': { args: z.object({ sessionId: z.string().min(1) }), result: MediaPeaks },
} as const;
