import type { Session } from '../../common/api';
import type { ServiceContext } from '../context';

export interface SessionRow {
  id: number;
  session_id: string;
  org_id: number;
  user_id: number;
  filename: string;
  duration: number;
  error: string | null;
  media_type: string;
  language: string;
  status: string;
  session_mode: string | null;
  keep_media: number;
  diarization: number;
  punctuation: number;
  allow_magic_link_export: number;
  created_at: string;
  last_modified: string;
  date_upload: string | null;
  date_finished: string | null;
  date_retried: string | null;
  date_session_start: string | null;
}

/** A session row as the wire resource. */
export function toSession(_ctx: ServiceContext, row: SessionRow): Session {
  return {
    id: row.id,
    session_id: row.session_id,
    duration: row.duration,
    error: row.error,
    filename: row.filename,
    media_type: row.media_type,
    media_url: '',
    language: row.language,
    language_key: row.language,
    status: row.status as Session['status'],
    last_modified: row.last_modified,
    date_upload: row.date_upload,
    date_finished: row.date_finished,
    date_retried: row.date_retried,
    date_session_start: row.date_session_start,
    keep_media: row.keep_media === 1,
    diarization: row.diarization === 1,
    session_mode: row.session_mode as Session['session_mode'],
    allow_magic_link_export: row.allow_magic_link_export === 1,
  };
}
