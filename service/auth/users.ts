import { Role } from '../../common/api';
import type { CurrentUser } from '../../common/api';
import { stmt, type Db } from '../db';
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
  two_factor_active: number;
  /** Sealed (AES-GCM) base32 TOTP secrets; see secrets.ts. */
  totp_secret: string | null;
  totp_pending_secret: string | null;
}

export function findUserByEmail(db: Db, email: string): UserRow | undefined {
  return stmt(db, 'SELECT * FROM users WHERE email = ?').get(email) as UserRow | undefined;
}

export function findUserById(db: Db, id: number): UserRow | undefined {
  return stmt(db, 'SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
}

export function userRoles(row: UserRow): Role[] {
  return Role.array().parse(JSON.parse(row.roles));
}

/** A new organization, on the local plan. */
export function createOrganization(db: Db, name: string, now = new Date().toISOString()): number {
  const orgId = Number(db.prepare('INSERT INTO organizations (name, created_at) VALUES (?, ?)').run(name, now).lastInsertRowid);
  db.prepare("INSERT INTO subscriptions (org_id, plan_id, status, started_at) VALUES (?, 1, 'active', ?)").run(orgId, now);
  return orgId;
}

/** Creates a user; without an organization id it gets an organization of its own. */
export async function createUser(
  db: Db,
  input: { email: string; password: string | null; roles: Role[]; orgId?: number; firstName?: string; lastName?: string; identityProvider?: string },
): Promise<UserRow> {
  const hash = input.password === null ? null : await hashPassword(input.password);
  const now = new Date().toISOString();
  return db.transaction(() => {
    const orgId = input.orgId ?? createOrganization(db, `${input.email}'s organization`, now);
    const id = db
      .prepare(
        'INSERT INTO users (org_id, email, password_hash, first_name, last_name, roles, identity_provider, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(orgId, input.email, hash, input.firstName ?? '', input.lastName ?? '', JSON.stringify(input.roles), input.identityProvider ?? 'local', now)
      .lastInsertRowid;
    return findUserById(db, Number(id))!;
  })();
}

export function toCurrentUser(row: UserRow): CurrentUser {
  return {
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    newsletter: row.newsletter === 1,
    roles: userRoles(row),
    two_factor_active: row.two_factor_active === 1,
    is_active: row.is_active === 1,
    id: row.id,
    identity_provider: row.identity_provider,
  };
}
