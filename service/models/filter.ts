import type { LanguageModel } from '../../common/api';

const BOOLEAN_FIELDS = ['is_trainable', 'is_private', 'has_punctuation', 'engine_supported'] as const;
const TEXT_FIELDS = ['key', 'bcp47', 'name'] as const;

export type ModelFilter = (m: LanguageModel) => boolean;

/**
 * Parses `field:op:value[,field:op:value...]` (e.g. is_trainable:eq:true); op is eq or ne.
 * Returns an error message for anything else, so the route answers 422 rather than guessing.
 */
export function parseModelFilter(raw: string): ModelFilter | string {
  const parts = raw.split(',');
  const tests: ModelFilter[] = [];
  for (const part of parts) {
    const m = /^([a-z_0-9]+):(eq|ne):(.+)$/.exec(part.trim());
    if (!m) return `filter must look like field:eq:value (got "${part}")`;
    const [, field, op, value] = m;
    let test: ModelFilter;
    if ((BOOLEAN_FIELDS as readonly string[]).includes(field)) {
      if (value !== 'true' && value !== 'false') return `filter value for ${field} must be true or false`;
      const want = value === 'true';
      test = (model) => (model[field as (typeof BOOLEAN_FIELDS)[number]] ?? false) === want;
    } else if ((TEXT_FIELDS as readonly string[]).includes(field)) {
      test = (model) => String(model[field as (typeof TEXT_FIELDS)[number]]).toLowerCase() === value.toLowerCase();
    } else {
      return `filter field must be one of ${[...BOOLEAN_FIELDS, ...TEXT_FIELDS].join(', ')}`;
    }
    tests.push(op === 'eq' ? test : (model) => !test(model));
  }
  return (model) => tests.every((t) => t(model));
}
