import { createContext, useContext } from 'react';
import type { ConflictPairSummary } from '../../../../common/ipc';
import { useChannel } from '../../lib/useChannel';

/**
 * Opens the side-by-side view of a conflict copy and its original (either id), for the notices
 * inside the editor. The session view provides it; outside one there is nothing to open.
 */
export const OpenConflictContext = createContext<((documentId: string) => void) | null>(null);

export function useOpenConflict(): ((documentId: string) => void) | null {
  return useContext(OpenConflictContext);
}

/** The session's conflict copies still waiting for a decision, read again when the session changes. */
export function useConflictPairs(sessionId: string): ConflictPairSummary[] {
  const read = useChannel('conflicts.list', { sessionId }, (c) => !c.sessions || c.sessions.includes(sessionId));
  return read.value ?? [];
}
