/**
 * Conflict copies beside their originals: which pairs a session has, one pair aligned segment by
 * segment for the side-by-side view, and the user's picks written back (the copy then goes).
 * Served by main/ipc/handlers/conflicts.ts.
 */
import { z } from 'zod';

const Id = z.string().min(1).max(200);

export const ConflictPairSummary = z.object({
  copyId: z.string(),
  copyFilename: z.string(),
  originalId: z.string(),
  originalFilename: z.string(),
  /** When the copy was made (ISO time). */
  created: z.string(),
});
export type ConflictPairSummary = z.infer<typeof ConflictPairSummary>;

const UnitView = z.object({ start_ms: z.number(), end_ms: z.number(), speaker: z.string().nullable(), text: z.string() });

export const ConflictRow = z.object({
  id: z.string(),
  status: z.enum(['equal', 'differs']),
  /** Both sides changed it (the clash that made the copy); otherwise only one side did. */
  bothChanged: z.boolean(),
  /** The original's version (the service's); null when only the copy has it. */
  theirs: UnitView.nullable(),
  /** The copy's version (ours); null when only the original has it. */
  ours: UnitView.nullable(),
});

export const ConflictPair = ConflictPairSummary.extend({
  kind: z.enum(['transcript', 'caption']),
  /** Fingerprint of both documents as read; resolve refuses when either changed since. */
  version: z.string(),
  rows: z.array(ConflictRow),
});
export type ConflictPair = z.infer<typeof ConflictPair>;

export const ConflictChoices = z.record(z.string().min(1).max(200), z.enum(['ours', 'theirs']));

export const conflictsChannels = {
  /** The conflict copies of a session still waiting for a decision, each with its original. */
  'conflicts.list': { args: z.object({ sessionId: Id }), result: z.array(ConflictPairSummary) },
  /** One copy and its original, aligned by segment (or cue) id. Either id of the pair finds it. */
  'conflicts.get': { args: z.object({ documentId: Id }), result: ConflictPair.nullable() },
  /**
   * Writes the picks into the original as one save (it syncs like any edit) and deletes the copy
   * (here and on the service), in one transaction. Refused when a differing segment has no pick
   * or either document changed since `version` was read.
   */
  'conflicts.resolve': {
    args: z.object({ copyId: Id, version: z.string().min(1).max(200), choices: ConflictChoices }),
    result: z.object({ documentId: z.string() }),
  },
} as const;

export type ConflictsChannelName = keyof typeof conflictsChannels;
