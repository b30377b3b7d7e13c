/**
 * Child process of bench/watch.bench.ts: uploads one file through the watch uploader (tus), so its
 * peak RSS is measured alone. argv: URL EMAIL PASSWORD FILE; prints `done <file_id>` when finished.
 */
import { statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { ApiClient } from '../main/api/client';
import { PasswordAuth } from '../main/watch/auth';
import { hashFile, sniffMedia } from '../main/watch/media';
import { Uploader } from '../main/watch/upload';

const [url, email, password, file] = process.argv.slice(2);
const auth = new PasswordAuth(email, password);
const client = new ApiClient({ baseUrl: url, auth: auth.asAuthSource() });
auth.attach(client);
const uploader = new Uploader({ client, auth, tusStorageFile: join(tmpdir(), `s2t-bench-tus-${process.pid}.json`) });
const size = statSync(file).size;
const mediaType = (await sniffMedia(file)) ?? 'application/octet-stream';
// The hash is part of the watcher's work, but not of the upload being timed: it is read first.
const hash = process.env.BENCH_HASH ?? (await hashFile(file));
process.stdout.write('start\n');
const handle = await open(file);
const done = await uploader.upload({ path: file, handle, size, mediaType, hash, tusUrl: null, legacy: { language: 'en' }, legacySessionId: null }, { onBytes: () => {} });
await handle.close();
process.stdout.write(`done ${'fileId' in done ? done.fileId : done.sessionId}\n`);
