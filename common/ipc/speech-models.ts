/**
 * The model manager in Preferences: the service's speech engines and Whisper models, and the
 * download actions. `available: false` (with the reason in words) when the service has no model
 * manager (a cloud account) or the signed-in user may not manage models.
 */
import { z } from 'zod';
import { SpeechModelName, SpeechModels } from '../api/speech-models';

const ByName = z.object({ name: SpeechModelName });
const Outcome = z.discriminatedUnion('available', [z.object({ available: z.literal(true), list: SpeechModels }), z.object({ available: z.literal(false), message: z.string() })]);
export type SpeechModelsOutcome = z.infer<typeof Outcome>;

export const speechModelChannels = {
  'speechModels.list': { args: z.object({}), result: Outcome },
  /** Start or resume a download; refused in words (no disk space, already installed). */
  'speechModels.download': { args: ByName, result: Outcome },
  'speechModels.pause': { args: ByName, result: Outcome },
  'speechModels.cancel': { args: ByName, result: Outcome },
  'speechModels.delete': { args: ByName, result: Outcome },
  /** "Use a model file I already have": a full path to a ggml file on this computer. */
  'speechModels.import': { args: z.object({ path: z.string().min(1).max(4096) }), result: Outcome },
} as const;
export type SpeechModelChannelName = keyof typeof speechModelChannels;
