/** An import's queue row as the uploads view shows it (ImportItem). */
import { ImportSource, TranscriptionOptions, type ImportItem, type ImportState } from '../../common/ipc';
import { uploadPercent, type ItemRow } from '../watch/store';

const STATE: Record<ItemRow['state'], ImportState> = {
  detected: 'queued',
  uploading: 'uploading',
  transcribing: 'transcribing',
  fetching: 'transcribing',
  delivered: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** States the queue keeps while it waits to try again (offline, a rate limit): its message says for what. */
const RUNNING: ReadonlySet<ItemRow['state']> = new Set(['uploading', 'transcribing', 'fetching']);

export function toImportItem(row: ItemRow, live?: { rate: number | null; etaSeconds: number | null }, now = Date.now()): ImportItem {
  // Set back until not_before: nothing runs, so the view says what it waits for, not "Uploading".
  const waiting = RUNNING.has(row.state) && row.error !== null && row.not_before > now;
  const uploading = row.state === 'uploading' && !waiting;
  return {
    itemId: row.id,
    name: row.name ?? row.path,
    source: ImportSource.parse(JSON.parse(row.source ?? 'null')),
    options: TranscriptionOptions.parse(JSON.parse(row.options ?? '{}')),
    state: waiting ? 'queued' : STATE[row.state],
    bytesSent: row.bytes_sent,
    bytesTotal: row.size,
    percent: uploadPercent(row),
    rate: uploading ? (live?.rate ?? null) : null,
    etaSeconds: uploading ? (live?.etaSeconds ?? null) : null,
    // Running again: the last setback's reason is over (the queue clears it only once the step succeeds).
    message: RUNNING.has(row.state) && !waiting ? null : row.error,
    sessionId: row.session_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
