import type { ListQuery } from '../../common/api';
import { DEFAULT_LIMIT } from '../../common/api';
import { stmt, type Db } from '../db';
import { validationError } from './errors';

export interface ListSpec {
  /** Columns to return (default `*`). */
  select?: string;
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
  /** A unique column that orders equal sort keys (default rowid; name it when the FROM joins tables). */
  tieBreak?: string;
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
  // Own keys only: `constructor` or `__proto__` must not reach ORDER BY through the prototype.
  const sortExpr = Object.hasOwn(spec.sortable, sortKey) ? spec.sortable[sortKey] : undefined;
  if (!sortExpr) throw validationError(`sort must be one of: ${keys.join(', ') || '(none)'}`);
  const direction = (query.direction ?? spec.defaultDirection ?? 'desc').toUpperCase();
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = (stmt(db, `SELECT COUNT(*) AS n ${spec.from} ${whereSql}`).get(...args) as { n: number }).n;
  const limit = query.limit ?? DEFAULT_LIMIT;
  const offset = query.offset ?? 0;
  const result = stmt(db, `SELECT ${spec.select ?? '*'} ${spec.from} ${whereSql} ORDER BY ${sortExpr} ${direction}, ${spec.tieBreak ?? 'rowid'} ${direction} LIMIT ? OFFSET ?`).all(...args, limit, offset) as T[];
  return { count: result.length, total_results: total, result };
}

/** The same conventions over rows already in memory (fixed catalogs such as the language list). */
export function listArray<T extends Record<string, unknown>>(
  rows: T[],
  spec: { searchable: (keyof T & string)[]; sortable: (keyof T & string)[]; defaultDirection?: 'asc' | 'desc' },
  query: ListQuery,
): { count: number; total_results: number; result: T[] } {
  let items = rows;
  if (query.q) {
    if (spec.searchable.length === 0) throw validationError('q is not supported on this list');
    const needle = query.q.toLowerCase();
    items = items.filter((r) => spec.searchable.some((c) => String(r[c] ?? '').toLowerCase().includes(needle)));
  }
  const sortKey = query.sort ?? spec.sortable[0];
  if (!spec.sortable.includes(sortKey)) throw validationError(`sort must be one of: ${spec.sortable.join(', ')}`);
  const sign = (query.direction ?? spec.defaultDirection ?? 'asc') === 'asc' ? 1 : -1;
  items = [...items].sort((a, b) => sign * (a[sortKey] === b[sortKey] ? 0 : String(a[sortKey]) < String(b[sortKey]) ? -1 : 1));
  const offset = query.offset ?? 0;
  const result = items.slice(offset, offset + (query.limit ?? DEFAULT_LIMIT));
  return { count: result.length, total_results: items.length, result };
}
