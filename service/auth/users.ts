import { Role } from '../../common/api';
import type { CurrentUser } from '../../common/api';
import type { Db } from '../db';
import { hashPassword } from './passwords';

export interface UserRow {
  id: number;
  org_id: number;
  email: string;
  password_hash: string | null;
  first_name: string;
  last_name: string;
  newsletter: number;
  roles: string;
  is_active: number;
  identity_provider: string;
}

export function findUserByEmail(db: Db, email: string): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE email = ?').get(email) as UserRow | undefined;
}

export function findUserById(db: Db, id: number): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
}

export function userRoles(row: UserRow): Role[] {
  return Role.array().parse(JSON.parse(row.roles));
}

/** Creates a user; without an organization id it gets an organization of its own. */
export async function createUser(
  db: Db,
  input: { email: string; password: string | null; roles: Role[]; orgId?: number; firstName?: string; lastName?: string; identityProvider?: string },
): Promise<UserRow> {
  const hash = input.password === null ? null : await hashPassword(input.password);
  const now = new Date().toISOString();
  return db.transaction(() => {
    const orgId = input.orgId ?? Number(db.prepare('INSERT INTO organizations (name, created_at) VALUES (?, ?)').run(`${input.email}'s organization`, now).lastInsertRowid);
    const id = db
      .prepare(
        'INSERT INTO users (org_id, email, password_hash, first_name, last_name, roles, identity_provider, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(orgId, input.email, hash, input.firstName ?? '', input.lastName ?? '', JSON.stringify(input.roles), input.identityProvider ?? 'local', now)
      .lastInsertRowid;
    return findUserById(db, Number(id))!;
  })();
}

export function toCurrentUser(row: UserRow, twoFactorActive: boolean): CurrentUser {
  return {
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    newsletter: row.newsletter === 1,
    roles: userRoles(row),
    two_factor_active: twoFactorActive,
    is_active: row.is_active === 1,
    id: row.id,
    identity_provider: row.identity_provider,
  };
}
