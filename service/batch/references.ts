/**
 * transcribe's glossary_id and custom_model_id must name a glossary or custom model of the caller's
 * organization: an unknown id or another organization's answers 404 (never 403: no existence leak).
 * The local engine does not use either (pocketsphinx runs its stock en-US model); the checked ids
 * are kept in the job's metadata.
 */
import type { ServiceContext } from '../context';
import { notFound } from '../http/errors';

function requireOwn(ctx: ServiceContext, table: 'glossaries' | 'custom_models', what: string, raw: string | number, orgId: number): number {
  const id = typeof raw === 'number' ? raw : /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  const row = Number.isSafeInteger(id) ? ctx.db.prepare(`SELECT id FROM ${table} WHERE id = ? AND org_id = ?`).get(id, orgId) : undefined;
  if (!row) throw notFound(what);
  return id;
}

export const requireOwnGlossary = (ctx: ServiceContext, raw: string | number, orgId: number) => requireOwn(ctx, 'glossaries', 'glossary_id: the glossary', raw, orgId);
export const requireOwnCustomModel = (ctx: ServiceContext, raw: string | number, orgId: number) => requireOwn(ctx, 'custom_models', 'custom_model_id: the custom model', raw, orgId);
