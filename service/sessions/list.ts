import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { handle } from '../http/handle';
import { listRows } from '../http/listing';
import { LISTED_SESSION_JSON, toSession, type ListedSessionRow } from './present';

export function registerSessionList(app: FastifyInstance, ctx: ServiceContext): void {
  handle(app, ctx, 'sessions.list', async ({ query, principal }) => {
    const page = listRows<{ json: string }>(
      ctx.db,
      {
        select: LISTED_SESSION_JSON,
        from: 'FROM sessions',
        where: ['org_id = ?'],
        args: [principal.orgId],
        searchable: ['filename', 'language', 'status'],
        sortable: { created_at: 'created_at', last_modified: 'last_modified', filename: 'filename', duration: 'duration', status: 'status' },
      },
      query,
    );
    return { ...page, result: page.result.map((r) => toSession(ctx, JSON.parse(r.json) as ListedSessionRow)) };
  });
}
