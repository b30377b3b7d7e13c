import type { FastifyInstance } from 'fastify';
import type { Glossary } from '../../common/api';
import type { ServiceContext } from '../context';
import { notFound, validationError } from '../http/errors';
import { handle } from '../http/handle';
import { listRows } from '../http/listing';
import { listedLanguages } from '../models/catalog';

interface GlossaryRow {
  id: number;
  org_id: number;
  name: string;
  source_language: string;
  target_language: string | null;
  created_at: string;
  updated_at: string;
  entry_count: number;
}

/** The spec's default entry page for a glossary read. */
const DEFAULT_ENTRY_LIMIT = 1000;
const SELECT = 'g.*, (SELECT COUNT(*) FROM glossary_entries e WHERE e.glossary_id = g.id) AS entry_count';

/** Glossary languages are the base languages of the model list (ISO 639-1, lower case); any two different ones form a pair. */
function glossaryLanguages(): string[] {
  return [...new Set(listedLanguages().map((bcp47) => bcp47.split('-')[0].toLowerCase()))];
}

export function supportedPairs(): { source: string; target: string }[] {
  const langs = glossaryLanguages();
  return langs.flatMap((source) => langs.filter((t) => t !== source).map((target) => ({ source, target })));
}

/** Normalizes a language of a glossary; 422 when it is not one the service knows. */
function language(field: string, value: string): string {
  const v = value.toLowerCase();
  if (!glossaryLanguages().includes(v)) throw validationError(`${field} must be one of ${glossaryLanguages().join(', ')}`);
  return v;
}

const toGlossary = (r: GlossaryRow): Glossary => ({
  id: r.id,
  name: r.name,
  source_language: r.source_language,
  target_language: r.target_language,
  entry_count: r.entry_count,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** Glossaries belong to an organization; another organization's glossary answers 404. */
export function registerGlossaryRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const find = (orgId: number, id: number) => ctx.db.prepare(`SELECT ${SELECT} FROM glossaries g WHERE g.id = ? AND g.org_id = ?`).get(id, orgId) as GlossaryRow | undefined;
  function mustFind(orgId: number, id: number): GlossaryRow {
    const row = find(orgId, id);
    if (!row) throw notFound('glossary');
    return row;
  }
  function entries(glossaryId: number, limit: number) {
    return ctx.db.prepare('SELECT source, target FROM glossary_entries WHERE glossary_id = ? ORDER BY position LIMIT ?').all(glossaryId, limit) as { source: string; target: string }[];
  }
  function replaceEntries(glossaryId: number, list: { source: string; target: string }[]): void {
    ctx.db.prepare('DELETE FROM glossary_entries WHERE glossary_id = ?').run(glossaryId);
    const insert = ctx.db.prepare('INSERT INTO glossary_entries (glossary_id, position, source, target) VALUES (?, ?, ?, ?)');
    list.forEach((e, i) => insert.run(glossaryId, i, e.source, e.target));
  }
  const withEntries = (row: GlossaryRow, limit = DEFAULT_ENTRY_LIMIT) => ({ count: 1, total_results: 1, result: { ...toGlossary(row), entries: entries(row.id, limit) } });

  handle(app, ctx, 'glossaries.supportedLanguages', async () => {
    const pairs = supportedPairs();
    return { count: pairs.length, total_results: pairs.length, result: pairs };
  });

  handle(app, ctx, 'glossaries.list', async ({ principal, query }) => {
    const page = listRows<GlossaryRow>(
      ctx.db,
      {
        select: SELECT,
        from: 'FROM glossaries g',
        where: ['g.org_id = ?'],
        args: [principal.orgId],
        searchable: ['g.name', 'g.source_language', 'g.target_language'],
        sortable: { created_at: 'g.created_at', name: 'g.name COLLATE NOCASE', updated_at: 'g.updated_at' },
        tieBreak: 'g.id',
      },
      query,
    );
    return { ...page, result: page.result.map(toGlossary) };
  });

  handle(app, ctx, 'glossaries.get', async ({ principal, params, query }) => {
    const row = mustFind(principal.orgId, params.id);
    if (!query.include_entries) return { count: 1, total_results: 1, result: toGlossary(row) };
    return withEntries(row, query.limit ?? DEFAULT_ENTRY_LIMIT);
  });

  handle(
    app,
    ctx,
    'glossaries.create',
    async ({ principal, body }) => {
      const { orgId } = principal;
      const source = language('source_language', body.source_language);
      const target = body.target_language == null ? null : language('target_language', body.target_language);
      if (target === source) throw validationError('target_language must differ from source_language');
      const now = new Date().toISOString();
      const id = ctx.db.transaction(() => {
        const newId = Number(
          ctx.db.prepare('INSERT INTO glossaries (org_id, name, source_language, target_language, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(orgId, body.name, source, target, now, now)
            .lastInsertRowid,
        );
        replaceEntries(newId, body.entries ?? []);
        return newId;
      })();
      return withEntries(find(orgId, id)!);
    },
  );

  handle(app, ctx, 'glossaries.update', async ({ principal, params, body }) => {
    const { orgId } = principal;
    const row = mustFind(orgId, params.id);
    const target = body.target_language === undefined ? row.target_language : body.target_language === null ? null : language('target_language', body.target_language);
    if (target === row.source_language) throw validationError('target_language must differ from source_language');
    ctx.db.transaction(() => {
      ctx.db.prepare('UPDATE glossaries SET name = ?, target_language = ?, updated_at = ? WHERE id = ?').run(body.name ?? row.name, target, new Date().toISOString(), row.id);
      if (body.entries) replaceEntries(row.id, body.entries);
    })();
    return withEntries(find(orgId, row.id)!);
  });

  handle(app, ctx, 'glossaries.delete', async ({ principal, params }) => {
    const row = mustFind(principal.orgId, params.id);
    ctx.db.prepare('DELETE FROM glossaries WHERE id = ?').run(row.id);
    return { success: true as const };
  });
}
