import type { TokenType } from '../../common/api';
import type { Db } from '../db';

export interface ResolvedApiToken {
  id: number;
  userId: number;
  type: TokenType;
}

/**
 * Looks an API token up by its hash; undefined when unknown, deleted or expired.
 * The token store arrives with issue 3 (svc1); until then no API token is valid.
 */
export function resolveApiToken(_db: Db, _value: string): ResolvedApiToken | undefined {
  return undefined;
}
