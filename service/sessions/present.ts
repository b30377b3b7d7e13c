import type { Session } from '../../common/api';
import { buildPath, routes } from '../../common/api';
import type { ServiceContext } from '../context';
import { signParams } from '../net/signed-url';

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
  media_path?: string | null;
  kept_path?: string | null;
  waveform_path?: string | null;
  transcript_text?: string | null;
  webhook_url?: string | null;
  webhook_method?: string | null;
  webhook_headers?: string | null;
  meta_data?: string | null;
  attempts?: number;
}

/** Signed media and waveform links live this long (seconds); a client re-reads the session for fresh ones. */
export const SIGNED_URL_TTL = 6 * 3600;

/** A signed link to a session's media or waveform, as a path (a page on this service uses it as is). */
export function signedPath(ctx: ServiceContext, routeId: 'sessions.media' | 'sessions.waveform', sessionId: string): string {
  const { exp, sig } = signParams(ctx.secret, routeId === 'sessions.media' ? 'media' : 'waveform', sessionId, SIGNED_URL_TTL);
  return `${buildPath(routes[routeId].path, { sessionId })}?exp=${exp}&sig=${sig}`;
}

const signedUrl = (ctx: ServiceContext, routeId: 'sessions.media' | 'sessions.waveform', sessionId: string) => `${ctx.baseUrl()}${signedPath(ctx, routeId, sessionId)}`;

/** The legacy create's meta_data, as the client gave it (string values), or undefined when none was given. */
export function metaData(row: Pick<SessionRow, 'meta_data'>): Record<string, string> | undefined {
  return row.meta_data ? (JSON.parse(row.meta_data) as Record<string, string>) : undefined;
}

/**
 * A session row as the wire resource. media_url is a signed link to the kept copy (empty when the
 * media is not kept); wave_info_url a signed link to the waveform once it exists; meta_data is
 * given back as the legacy create received it, when it was given.
 */
export function toSession(ctx: ServiceContext, row: SessionRow): Session {
  return {
    id: row.id,
    session_id: row.session_id,
    duration: row.duration,
    error: row.error,
    filename: row.filename,
    media_type: row.media_type,
    media_url: row.kept_path ? signedUrl(ctx, 'sessions.media', row.session_id) : '',
    language: row.language,
    language_key: row.language,
    status: row.status as Session['status'],
    last_modified: row.last_modified,
    date_upload: row.date_upload,
    date_finished: row.date_finished,
    date_retried: row.date_retried,
    date_session_start: row.date_session_start,
    ...(row.waveform_path ? { wave_info_url: signedUrl(ctx, 'sessions.waveform', row.session_id) } : {}),
    keep_media: row.keep_media === 1,
    diarization: row.diarization === 1,
    session_mode: row.session_mode as Session['session_mode'],
    allow_magic_link_export: row.allow_magic_link_export === 1,
    ...(row.meta_data ? { meta_data: metaData(row) } : {}),
  };
}

const SIGNED_URL_SQL = 's2t_signed_url';

/**
 * The session list's rows: each session's wire JSON as the session_wire table keeps it (triggers
 * write it with every change of the session: migrations/core.ts, 152), with the signed links
 * added for the time of the request, by the SQL function registerSignedUrlSql puts on the
 * connection. Reading stored text instead of building 25 objects, checking them and serializing
 * them again per request was most of a list request's time. Same keys and values as toSession,
 * except that wave_info_url and meta_data, when present, come last and a whole number of seconds
 * in duration reads 99.0 (the same JSON number); test/service/sessions/list.test.ts pins the two.
 * The join is a LEFT JOIN on session_wire's key so that SQLite leaves it out of the list's count.
 */
export const LISTED_SESSIONS = {
  select: `CASE WHEN w.media OR w.wave THEN json_patch(w.json, json_object(${[
    `'media_url', CASE WHEN w.media THEN ${SIGNED_URL_SQL}('sessions.media', w.session_id) ELSE '' END`,
    `'wave_info_url', CASE WHEN w.wave THEN ${SIGNED_URL_SQL}('sessions.waveform', w.session_id) END`,
  ].join(', ')})) ELSE w.json END AS json`,
  from: 'FROM sessions s LEFT JOIN session_wire w ON w.id = s.id',
  tieBreak: 's.rowid',
};

/** Gives this connection the SQL function LISTED_SESSIONS signs its links with (this service's key and address). */
export function registerSignedUrlSql(ctx: ServiceContext): void {
  ctx.db.function(SIGNED_URL_SQL, { deterministic: false }, (routeId: unknown, sessionId: unknown) => {
    if ((routeId !== 'sessions.media' && routeId !== 'sessions.waveform') || typeof sessionId !== 'string') throw new TypeError(`${SIGNED_URL_SQL}: bad arguments`);
    return signedUrl(ctx, routeId, sessionId);
  });
}
