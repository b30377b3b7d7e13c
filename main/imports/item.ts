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

export function toImportItem(row: ItemRow, live?: { rate: number | null; etaSeconds: number | null }): ImportItem {
  const uploading = row.state === 'uploading';
  return {
    itemId: row.id,
    name: row.name ?? row.path,
    source: ImportSource.parse(JSON.parse(row.source ?? 'null')),
    options: TranscriptionOptions.parse(JSON.parse(row.options ?? '{}')),
    state: STATE[row.state],
    bytesSent: row.bytes_sent,
    bytesTotal: row.size,
    percent: uploadPercent(row),
    rate: uploading ? (live?.rate ?? null) : null,
    etaSeconds: uploading ? (live?.etaSeconds ?? null) : null,
    message: row.error,
    sessionId: row.session_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
