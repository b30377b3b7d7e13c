import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { handle, JsonText } from '../http/handle';
import { listRows } from '../http/listing';
import { registerSignedUrlSql, SESSION_WIRE_SQL, wireSession, type WireSessionRow } from './present';

/** The list answers the JSON text SQLite builds for each session (README: Session list, where a request's time went). */
export function registerSessionList(app: FastifyInstance, ctx: ServiceContext): void {
  registerSignedUrlSql(ctx);
  handle(app, ctx, 'sessions.list', async ({ query, principal }) => {
    const page = listRows<WireSessionRow>(
      ctx.db,
      {
        select: SESSION_WIRE_SQL,
        from: 'FROM sessions',
        where: ['org_id = ?'],
        args: [principal.orgId],
        searchable: ['filename', 'language', 'status'],
        sortable: { created_at: 'created_at', last_modified: 'last_modified', filename: 'filename', duration: 'duration', status: 'status' },
      },
      query,
    );
    return new JsonText(`{"count":${page.count},"total_results":${page.total_results},"result":[${page.result.map(wireSession).join(',')}]}`);
  });
}
