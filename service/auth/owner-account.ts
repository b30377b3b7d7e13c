/**
 * The embedded service's one account: the person whose app started it. The app makes its
 * credential and hands it over the parent message channel (service/parent-channel.ts), never
 * argv, the environment or a file; here the account is created, or its password replaced.
 */
import { z } from 'zod';
import type { Db } from '../db';
import { hashPassword } from './passwords';
import { createUser, findUserByEmail } from './users';

export const OwnerCredential = z.object({ email: z.string().regex(/^[^\s@]+@[^\s@]+$/).max(320), password: z.string().min(8).max(1024) });
export type OwnerCredential = z.infer<typeof OwnerCredential>;

/** Earlier versions gave every embedded service this account with a public password. */
const LEGACY_DEMO_EMAIL = 'demo@s2t.local';

/**
 * Makes `owner` the account's credential. An install from before keeps its data: the legacy demo
 * account becomes the owner's, and its public password is gone either way.
 */
export async function setOwnerAccount(db: Db, owner: OwnerCredential): Promise<void> {
  const hash = await hashPassword(owner.password);
  const current = findUserByEmail(db, owner.email) ?? findUserByEmail(db, LEGACY_DEMO_EMAIL);
  if (!current) {
    await createUser(db, { email: owner.email, password: owner.password, roles: ['CUSTOMER', 'DEVELOPER'] });
    return;
  }
  db.prepare('UPDATE users SET email = ?, password_hash = ?, is_active = 1 WHERE id = ?').run(owner.email, hash, current.id);
}
