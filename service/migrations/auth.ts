import type { Migration } from '../db';

/** Accounts, credentials, two-factor, single sign-on and the organization's listed resources. */
export const authMigrations: Migration[] = [
  {
    version: 50,
    name: 'api tokens',
    up: `
      CREATE TABLE api_tokens (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        key TEXT NOT NULL,
        hash BLOB NOT NULL UNIQUE,
        type TEXT NOT NULL CHECK (type IN ('batch', 'realtime')),
        expires_at TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX api_tokens_user ON api_tokens(user_id);
    `,
  },
  {
    version: 51,
    name: 'two-factor',
    up: `
      ALTER TABLE users ADD COLUMN two_factor_active INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE users ADD COLUMN totp_secret TEXT;
      ALTER TABLE users ADD COLUMN totp_pending_secret TEXT;
      ALTER TABLE users ADD COLUMN totp_last_step INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE backup_codes (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        hash BLOB NOT NULL,
        used_at TEXT
      );
      CREATE INDEX backup_codes_user ON backup_codes(user_id);
    `,
  },
  {
    version: 52,
    name: 'single sign-on flows',
    up: `
      CREATE TABLE sso_flows (
        id TEXT PRIMARY KEY,
        provider TEXT NOT NULL,
        redirect_uri TEXT NOT NULL,
        state TEXT,
        expires_at INTEGER NOT NULL,
        used_at TEXT
      );
      CREATE TABLE sso_browser_sessions (
        id TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        expires_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 53,
    name: 'folders and glossaries',
    up: `
      CREATE TABLE folders (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL REFERENCES organizations(id),
        parent_id INTEGER REFERENCES folders(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX folders_org ON folders(org_id);
      CREATE TABLE glossaries (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL REFERENCES organizations(id),
        name TEXT NOT NULL,
        source_language TEXT NOT NULL,
        target_language TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX glossaries_org ON glossaries(org_id);
      CREATE TABLE glossary_entries (
        glossary_id INTEGER NOT NULL REFERENCES glossaries(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        source TEXT NOT NULL,
        target TEXT NOT NULL,
        PRIMARY KEY (glossary_id, position)
      );
    `,
  },
  {
    version: 54,
    name: 'organization, billing and preference lists',
    up: `
      ALTER TABLE organizations ADD COLUMN reseller_org_id INTEGER REFERENCES organizations(id);
      CREATE TABLE plans (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        description TEXT NOT NULL,
        monthly_minutes INTEGER,
        price_cents INTEGER NOT NULL DEFAULT 0
      );
      INSERT INTO plans (id, name, description, monthly_minutes, price_cents)
        VALUES (1, 'local', 'The embedded local service: no quota, no charge', NULL, 0);
      CREATE TABLE subscriptions (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL REFERENCES organizations(id),
        plan_id INTEGER NOT NULL REFERENCES plans(id),
        status TEXT NOT NULL,
        started_at TEXT NOT NULL
      );
      CREATE TABLE invoices (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL REFERENCES organizations(id),
        number TEXT NOT NULL,
        amount_cents INTEGER NOT NULL,
        issued_at TEXT NOT NULL
      );
      CREATE TABLE mandates (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL REFERENCES organizations(id),
        method TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE custom_models (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL REFERENCES organizations(id),
        name TEXT NOT NULL,
        language TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE user_preferences (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        UNIQUE (user_id, key)
      );
      CREATE TABLE org_groups (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL REFERENCES organizations(id),
        name TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE org_group_members (
        group_id INTEGER NOT NULL REFERENCES org_groups(id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        PRIMARY KEY (group_id, user_id)
      );
      -- Every existing organization is on the local plan.
      INSERT INTO subscriptions (org_id, plan_id, status, started_at)
        SELECT id, 1, 'active', created_at FROM organizations;
    `,
  },
  {
    // Numbered after the work migrations (100): a database already at 100 skips any lower number.
    version: 150,
    name: 'single sign-on: the second factor of a flow',
    up: `
      -- The account that passed the first step of a flow and still owes its second factor.
      ALTER TABLE sso_flows ADD COLUMN mfa_user_id INTEGER REFERENCES users(id) ON DELETE CASCADE;
    `,
  },
];
