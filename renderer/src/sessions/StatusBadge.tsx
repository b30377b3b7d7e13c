import { useEffect, useState } from 'react';
import type { ImportItem, SessionSummary } from '../../../common/ipc';
import { subscribe } from '../lib/bridge';

const LABELS: Record<string, string> = {
  queued: 'Queued',
  uploaded: 'Uploaded',
  uploading: 'Uploading',
  processing: 'Processing',
  completed: 'Completed',
  failed: 'Failed',
  dead_letter: 'Failed for good',
};

export const STATUS_LABEL = (status: string) => LABELS[status] ?? status;

/** What an upload in this app says about a session while it runs: uploading, or transcribing with progress. */
export interface LiveProgress {
  state: 'uploading' | 'processing';
  percent: number;
}

/** Imports in flight, by the session they made (imports.progress events, live). */
export function useLiveProgress(): Map<string, LiveProgress> {
  const [live, setLive] = useState(new Map<string, LiveProgress>());
  useEffect(
    () =>
      subscribe('imports.progress', (item: ImportItem) => {
        if (!item.sessionId) return;
        const id = item.sessionId;
        setLive((m) => {
          const next = new Map(m);
          if (item.state === 'uploading' || item.state === 'transcribing') next.set(id, { state: item.state === 'uploading' ? 'uploading' : 'processing', percent: Math.round(item.percent) });
          else next.delete(id);
          return next;
        });
      }),
    [],
  );
  return live;
}

/**
 * The session's state as a badge: every status of the interface, with progress while an upload
 * of ours runs, and the error on hover (and to screen readers) when it failed.
 */
export function StatusBadge({ session, live }: { session: SessionSummary; live?: LiveProgress }) {
  const status = live?.state ?? session.status ?? 'unknown';
  const percent = live?.percent ?? (typeof session.progress === 'number' ? Math.round(session.progress) : null);
  const failed = status === 'failed' || status === 'dead_letter';
  const title = failed ? (session.error ?? 'No reason was given.') : undefined;
  return (
    <span className={`status-badge ${status}`} title={title} aria-label={failed ? `${STATUS_LABEL(status)}: ${title}` : undefined}>
      {STATUS_LABEL(status)}
      {(status === 'processing' || status === 'uploading') && percent !== null && ` ${percent}%`}
    </span>
  );
}
