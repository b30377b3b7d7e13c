/**
 * Captions that follow their transcript: the explicit rebuild, and the event that says which cues
 * a rebuild changed (an automatic one after a transcript save or pull, or the explicit one).
 * Served by main/captions.
 */
import { z } from 'zod';

export const CaptionsRebuilt = z.object({
  /** The caption document rebuilt. */
  documentId: z.string(),
  /** The transcript it follows. */
  transcriptId: z.string(),
  /** Cues (ids in the rebuilt document) that are new or differ. */
  changed: z.array(z.string()),
  /** Cues (ids before) that are gone. */
  removed: z.array(z.string()),
  /** Hand-edited cues kept because the words under them did not change. */
  keptEdits: z.array(z.string()),
});
export type CaptionsRebuilt = z.infer<typeof CaptionsRebuilt>;

export const captionsChannels = {
  /** Rebuilds a caption document from the transcript it follows (the session's, when not linked yet), with the caption profile from settings. */
  'captions.rebuild': { args: z.object({ documentId: z.string().min(1).max(200) }), result: CaptionsRebuilt },
} as const;

export type CaptionsChannelName = keyof typeof captionsChannels;

export const captionsEvents = {
  'captions.rebuilt': CaptionsRebuilt,
} as const;
