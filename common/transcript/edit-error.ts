/** Thrown by the edit operations when asked to act on something the document does not hold. */
export class EditError extends Error {
  override name = 'EditError';
}

/** An id not yet in `taken`, derived from `base` (base-2, base-3, ...). */
export function freshId(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}
