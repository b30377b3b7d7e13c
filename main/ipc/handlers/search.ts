/** search.*: full-text search over the cached documents of the signed-in account. */
import type { AreaHandlers, CoreContext } from './context';

export function searchHandlers({ cache, accountId }: CoreContext): AreaHandlers<'search'> {
  return {
    'search.text': async ({ q, limit }) => {
      const id = accountId();
      return id === null ? [] : cache.search(id, q, limit);
    },
  };
}
