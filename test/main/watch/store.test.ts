/** watch.db on real SQLite: one upload per content across folders, the hand-over when a folder goes, and the migration of an old file. */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { WatchProfile } from '../../../common/ipc';
import { resultKey } from '../../../main/watch/result-key';
import { MIGRATIONS } from '../../../main/watch/schema';
import { WatchStore } from '../../../main/watch/store';
import { cleanup, tempDir } from '../../helpers/service';

const dirs: string[] = [];
afterAll(() => dirs.forEach(cleanup));
const dbFile = () => {
  const d = tempDir('s2t-watch-store-');
  dirs.push(d);
  return join(d, 'watch.db');
};
const file = (path: string, hash: string) => ({ path, size: 10, mtimeMs: 1, hash, mediaType: 'audio/wav' });
/** Admits under the folder's own profile, as the WatchService does. */
const admit = (store: WatchStore, folderId: string, f: ReturnType<typeof file>) => store.admit(folderId, f, resultKey(f.hash, store.folder(folderId)!.profile));

it('admits a content once per folder, and across folders as a copy of the first upload', () => {
  const store = new WatchStore(dbFile());
  try {
    const a = store.addFolder('/a', WatchProfile.parse({}));
    const b = store.addFolder('/b', WatchProfile.parse({}));
    const first = admit(store, a.id, file('/a/x.wav', 'h1'));
    expect(first).toMatchObject({ created: true, item: { origin_item_id: null } });
    expect(admit(store, a.id, file('/a/renamed.wav', 'h1'))).toMatchObject({ created: false, item: { id: first.item.id } });
    const copy = admit(store, b.id, file('/b/x.wav', 'h1'));
    expect(copy).toMatchObject({ created: true, item: { folder_id: b.id, origin_item_id: first.item.id } });
    // The database itself refuses a second uploading item for one content.
    const db = (store as unknown as { db: Database.Database }).db;
    expect(() => db.prepare('UPDATE items SET origin_item_id = NULL WHERE id = ?').run(copy.item.id)).toThrow(/UNIQUE/);
  } finally {
    store.close();
  }
});

it('hands an upload on to its oldest copy when its folder is removed', () => {
  const store = new WatchStore(dbFile());
  try {
    const a = store.addFolder('/a', WatchProfile.parse({}));
    const b = store.addFolder('/b', WatchProfile.parse({}));
    const c = store.addFolder('/c', WatchProfile.parse({}));
    const origin = admit(store, a.id, file('/a/x.wav', 'h1')).item;
    store.update(origin.id, { state: 'transcribing', method: 'tus', file_id: 'f1', job_id: 'j1', session_id: 's1' });
    const heir = admit(store, b.id, file('/b/x.wav', 'h1')).item;
    const other = admit(store, c.id, file('/c/x.wav', 'h1')).item;
    store.removeFolder(a.id);
    expect(store.item(origin.id)).toBeNull();
    expect(store.item(heir.id)).toMatchObject({ origin_item_id: null, state: 'transcribing', file_id: 'f1', job_id: 'j1', session_id: 's1' });
    expect(store.item(other.id)).toMatchObject({ origin_item_id: heir.id, state: 'detected', job_id: null });
  } finally {
    store.close();
  }
});

it('migrates a version 1 file: items keep their ids, and cross-folder duplicates become copies', () => {
  const path = dbFile();
  const old = new Database(path);
  old.exec(MIGRATIONS[0]);
  old.pragma('user_version = 1');
  const now = new Date().toISOString();
  old.prepare("INSERT INTO folders VALUES ('a', '/a', '{}', 0, ?), ('b', '/b', '{}', 0, ?)").run(now, now);
  const insert = old.prepare("INSERT INTO items (id, folder_id, hash, path, size, media_type, state, session_id, delivered_modified, created_at, updated_at) VALUES (?, ?, ?, ?, 1, 'audio/wav', ?, ?, ?, ?, ?)");
  insert.run(7, 'a', 'h1', '/a/x.wav', 'delivered', 's1', now, now, now);
  insert.run(9, 'b', 'h1', '/b/x.wav', 'detected', null, null, now, now);
  old.close();

  const store = new WatchStore(path);
  try {
    expect(store.item(7)).toMatchObject({ origin_item_id: null, session_id: 's1', document_ids: '[]', delivered_version: null, submitted_at: null });
    expect(store.item(9)).toMatchObject({ origin_item_id: 7, state: 'detected' });
    expect(store.deliveredBySessions(['s1']).map((i) => i.id)).toEqual([7]);
  } finally {
    store.close();
  }
});

it('migrates a version 2 file to 3: items get the result key the app computes, and the imports folder is never listed', () => {
  const path = dbFile();
  const old = new Database(path);
  old.exec(MIGRATIONS[0]);
  old.exec(MIGRATIONS[1]);
  old.pragma('user_version = 2');
  const now = new Date().toISOString();
  const fr = WatchProfile.parse({ language: 'fr-FR', diarization: true, glossaryId: 12 });
  const en = WatchProfile.parse({ language: 'en-US', sessionMode: 'align', customModelId: 'cm-1' });
  old.prepare('INSERT INTO folders VALUES (?, ?, ?, 0, ?)').run('fr', '/fr', JSON.stringify(fr), now);
  old.prepare('INSERT INTO folders VALUES (?, ?, ?, 0, ?)').run('en', '/en', JSON.stringify(en), now);
  const insert = old.prepare("INSERT INTO items (id, folder_id, hash, path, size, media_type, state, origin_item_id, created_at, updated_at) VALUES (?, ?, 'h1', ?, 1, 'audio/wav', 'delivered', ?, ?, ?)");
  insert.run(3, 'fr', '/fr/x.wav', null, now, now);
  insert.run(4, 'en', '/en/x.wav', 3, now, now);
  old.close();

  const store = new WatchStore(path);
  try {
    // The SQL of migration 3 and result-key.ts must agree, or reuse would never match old items.
    expect(store.item(3)!.result_key).toBe(resultKey('h1', fr));
    expect(store.item(4)!.result_key).toBe(resultKey('h1', en));
    expect(resultKey('h1', fr)).not.toBe(resultKey('h1', en));
    expect(store.folders().map((f) => f.id).sort()).toEqual(['en', 'fr']);
    // A new file with the French content and profile reuses item 3; another profile is a job of its own.
    const frCopy = store.addFolder('/fr2', fr);
    const enNew = store.addFolder('/en2', WatchProfile.parse({ language: 'en-US' }));
    expect(admit(store, frCopy.id, file('/fr2/x.wav', 'h1')).item.origin_item_id).toBe(3);
    expect(admit(store, enNew.id, file('/en2/x.wav', 'h1')).item.origin_item_id).toBeNull();
    // The same profile on another speech engine is a job of its own too; on the same engine, a reuse.
    const whisper = WatchProfile.parse({ language: 'en-US', speechEngine: 'whisper:small' });
    const onModel = store.addFolder('/en3', whisper);
    const onModelToo = store.addFolder('/en4', whisper);
    const first = admit(store, onModel.id, file('/en3/x.wav', 'h1')).item;
    expect(first.origin_item_id).toBeNull();
    expect(admit(store, onModelToo.id, file('/en4/x.wav', 'h1')).item.origin_item_id).toBe(first.id);
    expect(resultKey('h1', whisper)).toBe(`${resultKey('h1', WatchProfile.parse({ language: 'en-US' }))}:engine=whisper:small`);
    // Imports: their own folder row, never among watch folders or watch items; cleared when finished.
    const imp = store.addImport({ path: '/m/a.wav', size: 1, mediaType: 'audio/wav', name: 'a.wav', options: '{}', source: '{"kind":"path","path":"/m/a.wav"}', text: null, staged: false });
    expect(store.folders().map((f) => f.path)).not.toContain(':imports:');
    expect(store.items({ offset: 0, limit: 100 }).items.map((i) => i.id)).not.toContain(imp.id);
    expect(store.imports(0, 10).items.map((i) => i.id)).toEqual([imp.id]);
    expect(store.clearFinishedImports()).toEqual([]);
    store.update(imp.id, { state: 'cancelled' });
    expect(store.clearFinishedImports().map((r) => r.id)).toEqual([imp.id]);
    expect(store.imports(0, 10).total).toBe(0);
  } finally {
    store.close();
  }
});
