/**
 * models.accountLists, the dialog's glossaries and custom models, against the real service over
 * HTTP: empty lists for an account without any; a glossary made through the service's API and a
 * custom model from the service's own data (nothing in the service creates those: the row is
 * written into its SQLite, as test/service/auth/lists.test.ts does) are listed by name and
 * language; with the service gone, the last lists read answer, marked stale.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DEMO } from '../../helpers/service';
import { importsSuite } from './helpers';

const t = importsSuite('s2t-account-lists');

it('lists none, then the account glossary and custom model, and the cached lists when the service is gone', async () => {
  expect(await t.h.call('models.accountLists', {})).toEqual({ glossaries: [], customModels: [], stale: false });

  const made = await fetch(`${t.svc.url}/api/v4/glossaries`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Product names', source_language: 'en', entries: [{ source: 'ess two tee', target: 'S2T' }] }),
  });
  expect(made.status).toBe(201);
  const glossary = ((await made.json()) as { result: { id: number } }).result;
  const db = new Database(join(t.svc.dataDir, 'service.db'));
  db.pragma('busy_timeout = 5000');
  const orgId = (db.prepare('SELECT org_id FROM users WHERE email = ?').get(DEMO.email) as { org_id: number }).org_id;
  const modelId = Number(db.prepare('INSERT INTO custom_models (org_id, name, language, status, created_at) VALUES (?, ?, ?, ?, ?)').run(orgId, 'Legal', 'en-US', 'ready', new Date().toISOString()).lastInsertRowid);
  db.close();

  const lists = await t.h.call('models.accountLists', {});
  expect(lists).toEqual({
    glossaries: [{ id: glossary.id, name: 'Product names', language: 'en' }],
    customModels: [{ id: modelId, name: 'Legal', language: 'en-US' }],
    stale: false,
  });

  await t.svc.kill();
  expect(await t.h.call('models.accountLists', {})).toEqual({ ...lists, stale: true });
}, 120_000);
