import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { handle, JsonText } from '../http/handle';
import { listRows } from '../http/listing';
import { LISTED_SESSIONS, registerSignedUrlSql } from './present';

/** The list answers each session's stored JSON text (LISTED_SESSIONS) in the envelope, unparsed. */
export function registerSessionList(app: FastifyInstance, ctx: ServiceContext): void {
  registerSignedUrlSql(ctx);
  handle(app, ctx, 'sessions.list', async ({ query, principal }) => {
    const page = listRows<{ json: string }>(
      ctx.db,
      {
        ...LISTED_SESSIONS,
        where: ['s.org_id = ?'],
        args: [principal.orgId],
        searchable: ['s.filename', 's.language', 's.status'],
        sortable: { created_at: 's.created_at', last_modified: 's.last_modified', filename: 's.filename', duration: 's.duration', status: 's.status' },
      },
      query,
    );
    return new JsonText(`{"count":${page.count},"total_results":${page.total_results},"result":[${page.result.map((r) => r.json).join(',')}]}`);
  });
}
