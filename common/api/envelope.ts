import { z } from 'zod';
import { SortDirection } from './enums';

export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 25;

/** The spec's paginated envelope: count (this page), total_results (all pages), result. */
export function envelope<T extends z.ZodType>(item: T) {
  return z.object({ count: z.number().int().min(0), total_results: z.number().int().min(0), result: z.array(item) });
}

/** Single-item reads use the same envelope with one object in result. */
export function single<T extends z.ZodType>(item: T) {
  return z.object({ count: z.number().int().min(0), total_results: z.number().int().min(0), result: item });
}

/** `{ result: X }` as account/me answers. */
export function wrapped<T extends z.ZodType>(item: T) {
  return z.object({ result: item });
}

const intParam = (fallback: number) =>
  z.preprocess((v) => (v === undefined || v === '' ? fallback : v), z.coerce.number().int().min(0));

/**
 * Listing conventions. A limit above 100 is refused with 422 rather than silently clamped, so a
 * client never believes it has read everything when it has not (README: Interface choices).
 */
export const ListQuery = z.object({
  offset: intParam(0).optional(),
  limit: intParam(DEFAULT_LIMIT).pipe(z.number().int().min(1).max(MAX_LIMIT)).optional(),
  q: z.string().max(200).optional(),
  sort: z.string().max(64).regex(/^[a-z_]+$/).optional(),
  direction: SortDirection.optional(),
});
export type ListQuery = z.infer<typeof ListQuery>;

export type Envelope<T> = { count: number; total_results: number; result: T[] };
