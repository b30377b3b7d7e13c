import type { ListQuery } from '../../common/api';
import { DEFAULT_LIMIT } from '../../common/api';
import type { Db } from '../db';
import { validationError } from './errors';

export interface ListSpec {
  /** FROM ... (and joins) */
  from: string;
  /** Conditions every row must meet (e.g. organization scope), with their values. */
  where: string[];
  args: unknown[];
  /** Columns q matches with LIKE; none: q is refused with 422. */
  searchable: string[];
  /** Accepted sort keys mapped to SQL expressions; the first is the default. */
  sortable: Record<string, string>;
  defaultDirection?: 'asc' | 'desc';
}

/**
 * The spec's listing conventions in one place: offset, limit (default 25, at most 100), q over
 * the searchable columns, sort and direction over whitelisted keys only (never raw SQL), and an
 * envelope whose count is 0 for a page past the end.
 */
export function listRows<T>(db: Db, spec: ListSpec, query: ListQuery): { count: number; total_results: number; result: T[] } {
  const where = [...spec.where];
  const args = [...spec.args];
  if (query.q) {
    if (spec.searchable.length === 0) throw validationError('q is not supported on this list');
    where.push(`(${spec.searchable.map((c) => `${c} LIKE ? ESCAPE '\\'`).join(' OR ')})`);
    const like = `%${query.q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    for (let i = 0; i < spec.searchable.length; i++) args.push(like);
  }
  const keys = Object.keys(spec.sortable);
  const sortKey = query.sort ?? keys[0];
  const sortExpr = spec.sortable[sortKey];
  if (!sortExpr) throw validationError(`sort must be one of: ${keys.join(', ') || '(none)'}`);
  const direction = (query.direction ?? spec.defaultDirection ?? 'desc').toUpperCase();
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = (db.prepare(`SELECT COUNT(*) AS n ${spec.from} ${whereSql}`).get(...args) as { n: number }).n;
  const limit = query.limit ?? DEFAULT_LIMIT;
  const offset = query.offset ?? 0;
  const result = db.prepare(`SELECT * ${spec.from} ${whereSql} ORDER BY ${sortExpr} ${direction}, rowid ${direction} LIMIT ? OFFSET ?`).all(...args, limit, offset) as T[];
  return { count: result.length, total_results: total, result };
}
