/**
 * Migration 152 (session_wire): a database that already has sessions gets each one's wire JSON
 * when it is opened, so the list of an upgraded service shows every session, as toSession would.
 */
import { afterAll, expect, it } from 'vitest';
import { join } from 'node:path';
import { Session } from '../../../common/api';
import { openDatabase } from '../../../node/sqlite';
import { createUser } from '../../../service/auth/users';
import type { ServiceContext } from '../../../service/context';
import { openDb } from '../../../service/db';
import { migrations } from '../../../service/migrations';
import { toSession, type SessionRow } from '../../../service/sessions/present';
import { tempDirs } from '../../helpers/service';

const dirs = tempDirs();
afterAll(() => dirs.removeAll());

it('fills session_wire for the sessions a database had before it', async () => {
  const file = join(dirs.make('s2t-wire-'), 'service.db');
  const before = openDatabase(file, migrations, { upTo: 151 });
  const user = await createUser(before, { email: 'old@example.com', password: 'old-password', roles: ['CUSTOMER'], firstName: 'O', lastName: 'L' });
  const insert = before.prepare(
    `INSERT INTO sessions (session_id, org_id, user_id, filename, duration, error, language, status, session_mode, keep_media, created_at, last_modified, meta_data)
     VALUES (?, ?, ?, ?, ?, ?, 'en-US', ?, ?, ?, '2025-01-01T00:00:00.000Z', '2025-01-02T00:00:00.000Z', ?)`,
  );
  insert.run('old-1', user.org_id, user.id, 'a "quoted" name.wav', 12.5, null, 'completed', 'decode', 1, null);
  insert.run('old-2', user.org_id, user.id, 'b.wav', 0, 'failed: \\ here', 'failed', null, 0, JSON.stringify({ ref: 'x' }));
  expect(before.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'session_wire'").pluck().get()).toBe(0);
  before.close();

  const db = openDb(file, migrations);
  try {
    const ctx = { db, baseUrl: () => 'http://127.0.0.1:1' } as unknown as ServiceContext;
    const rows = db.prepare('SELECT * FROM sessions ORDER BY id').all() as SessionRow[];
    const wire = db.prepare('SELECT * FROM session_wire ORDER BY id').all() as { id: number; session_id: string; media: number; wave: number; json: string }[];
    expect(wire.map((w) => [w.id, w.session_id, w.media, w.wave])).toEqual(rows.map((r) => [r.id, r.session_id, 0, 0]));
    wire.forEach((w, i) => expect(Session.parse(JSON.parse(w.json))).toEqual(toSession(ctx, rows[i])));
  } finally {
    db.close();
  }
});
