/**
 * Finding a job again whose batch.transcribe answer was lost (a crash or a cut connection between
 * the service making the job and the queue saving its id). The spec offers no job list, so the
 * session the job made is looked for by name and time among the account's sessions.
 */
import { basename } from 'node:path';
import type { Session } from '../../common/api';
import type { ApiClient } from '../api/client';
import type { ItemRow, WatchStore } from './store';

/** How far before our submit mark a session found again may say it was uploaded (a service's clock may differ). */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * The session a batch.transcribe call made when its answer never reached us: the newest session
 * named like the media, uploaded after our mark (give or take clock skew), that no item of ours
 * already follows. Null when there is none, so the file is submitted (again, as it then must be).
 */
export async function findSubmittedSession(client: ApiClient, store: WatchStore, item: ItemRow, signal: AbortSignal): Promise<string | null> {
  const name = basename(item.path);
  const since = item.submitted_at! - CLOCK_SKEW_MS;
  for await (const found of client.items('sessions.list', { query: { q: name, sort: 'created_at', direction: 'desc' } }, { signal, pageSize: 50 })) {
    const s = found as Session;
    const uploaded = s.date_upload ? Date.parse(s.date_upload) : NaN;
    if (uploaded < since) break;
    if (s.filename === name && !store.knowsSession(s.session_id)) return s.session_id;
  }
  return null;
}
