/**
 * Updates for the installed app (main/updates/updates.ts): what is new, a download with progress,
 * and the install on restart when the person agrees. Browser mode and a build run from source
 * answer 'unsupported'.
 */
import { z } from 'zod';

const Version = z.string().min(1).max(64);
const Notes = z.string().max(20_000);

export const UpdateState = z.discriminatedUnion('state', [
  z.object({ state: z.literal('unsupported') }),
  z.object({ state: z.literal('idle') }),
  z.object({ state: z.literal('checking') }),
  z.object({ state: z.literal('current'), version: Version }),
  z.object({ state: z.literal('available'), version: Version, notes: Notes }),
  z.object({ state: z.literal('downloading'), version: Version, notes: Notes, percent: z.number().min(0).max(100), transferred: z.number().int().min(0), total: z.number().int().min(0) }),
  z.object({ state: z.literal('ready'), version: Version, notes: Notes }),
  z.object({ state: z.literal('failed'), message: z.string().max(500) }),
]);
export type UpdateState = z.infer<typeof UpdateState>;

export const updateChannels = {
  'updates.state': { args: z.object({}), result: UpdateState },
  /** Asks the update server; a failure answers 'failed' with a quiet message, never an error. */
  'updates.check': { args: z.object({}), result: UpdateState },
  /** Downloads the update found, with progress as updates.changed. */
  'updates.download': { args: z.object({}), result: UpdateState },
  /** Installs the downloaded update and restarts: only on the person's click. */
  'updates.install': { args: z.object({}), result: UpdateState },
} as const;

export const updateEvents = {
  'updates.changed': UpdateState,
} as const;
export type UpdateChannelName = keyof typeof updateChannels;
