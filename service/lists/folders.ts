import type { FastifyInstance } from 'fastify';
import type { Folder } from '../../common/api';
import type { ServiceContext } from '../context';
import { notFound, validationError } from '../http/errors';
import { handle } from '../http/handle';
import { listRows } from '../http/listing';

interface FolderRow {
  id: number;
  org_id: number;
  parent_id: number | null;
  name: string;
  created_at: string;
  updated_at: string;
}

const toFolder = (r: FolderRow): Folder => ({ id: r.id, name: r.name, parent_id: r.parent_id, created_at: r.created_at, updated_at: r.updated_at });
const one = (r: FolderRow) => ({ count: 1, total_results: 1, result: toFolder(r) });

/** Folders belong to an organization; another organization's folder answers 404 as if it did not exist. */
export function registerFolderRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const find = (orgId: number, id: number) => ctx.db.prepare('SELECT * FROM folders WHERE id = ? AND org_id = ?').get(id, orgId) as FolderRow | undefined;
  function mustFind(orgId: number, id: number): FolderRow {
    const row = find(orgId, id);
    if (!row) throw notFound('folder');
    return row;
  }

  /** A parent must be the organization's own folder, and never the folder itself or one below it. */
  function checkParent(orgId: number, parentId: number | null | undefined, self?: number): void {
    if (parentId === null || parentId === undefined) return;
    for (let at: number | null = parentId, hops = 0; at !== null; hops++) {
      if (at === self) throw validationError('parent_id would put the folder inside itself');
      const row = find(orgId, at);
      if (!row) throw validationError('parent_id is not a folder of this organization');
      if (hops > 10_000) throw validationError('folder tree too deep');
      at = row.parent_id;
    }
  }

  handle(app, ctx, 'folders.list', async ({ principal, query }) => {
    const page = listRows<FolderRow>(
      ctx.db,
      { from: 'FROM folders', where: ['org_id = ?'], args: [principal.orgId], searchable: ['name'], sortable: { created_at: 'created_at', name: 'name COLLATE NOCASE', updated_at: 'updated_at' } },
      query,
    );
    return { ...page, result: page.result.map(toFolder) };
  });

  handle(
    app,
    ctx,
    'folders.create',
    async ({ principal, body }) => {
      const { orgId } = principal;
      checkParent(orgId, body.parent_id);
      const now = new Date().toISOString();
      const id = Number(ctx.db.prepare('INSERT INTO folders (org_id, parent_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(orgId, body.parent_id ?? null, body.name, now, now).lastInsertRowid);
      return one(find(orgId, id)!);
    },
  );

  handle(app, ctx, 'folders.get', async ({ principal, params }) => one(mustFind(principal.orgId, params.id)));

  handle(app, ctx, 'folders.update', async ({ principal, params, body }) => {
    const { orgId } = principal;
    const row = mustFind(orgId, params.id);
    if (body.parent_id !== undefined) checkParent(orgId, body.parent_id, row.id);
    ctx.db
      .prepare('UPDATE folders SET name = ?, parent_id = ?, updated_at = ? WHERE id = ?')
      .run(body.name ?? row.name, body.parent_id === undefined ? row.parent_id : body.parent_id, new Date().toISOString(), row.id);
    return one(find(orgId, row.id)!);
  });

  handle(app, ctx, 'folders.delete', async ({ principal, params }) => {
    const row = mustFind(principal.orgId, params.id);
    // Subfolders go with it (ON DELETE CASCADE).
    ctx.db.prepare('DELETE FROM folders WHERE id = ?').run(row.id);
    return { success: true as const };
  });
}
