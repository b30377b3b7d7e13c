/**
 * An app's main process for the resume test, as a process of its own that can be killed: a
 * WatchService with the imports handlers on a data dir, signed in with S2T_USERNAME/S2T_PASSWORD.
 * argv: serviceUrl dataDir [mediaPath]. With a media path it adds that import; either way it
 * prints each import event as `<itemId> <state> <bytesSent>` and runs until it is stopped.
 */
import { join } from 'node:path';
import { ApiClient } from '../../../main/api/client';
import { toImportItem } from '../../../main/imports/item';
import { importHandlers } from '../../../main/imports/ipc';
import { ModelsList } from '../../../main/imports/models';
import { PasswordAuth } from '../../../main/watch/auth';
import { WatchService } from '../../../main/watch/service';

const [url, dataDir, media] = process.argv.slice(2);
const auth = new PasswordAuth(process.env.S2T_USERNAME!, process.env.S2T_PASSWORD!);
const client = new ApiClient({ baseUrl: url, auth: auth.asAuthSource(), retries: 0, timeoutMs: 15_000 });
auth.attach(client);
const watch = new WatchService({
  dataDir: join(dataDir, 'watch'),
  client,
  auth,
  pollMs: 300,
  chunkBytes: 4 * 1024 * 1024,
  onImportProgress: (row, live) => {
    const e = toImportItem(row, live);
    process.stdout.write(`${e.itemId} ${e.state} ${e.bytesSent}\n`);
  },
});
const handlers = importHandlers({ watch: () => watch, models: new ModelsList(client, join(dataDir, 'imports', 'models.json')), dataDir });
await watch.start();
if (media) await handlers['imports.add']({ sources: [{ kind: 'path', path: media }], options: { language: 'en-US', mode: 'decode', diarization: false, punctuation: true, allowProfanity: false, maskProfanity: false, keepMedia: true, glossaryId: null, customModelId: null, speechEngine: null, companion: null } });
process.stdout.write('ready\n');
process.on('SIGTERM', () => void watch.close().then(() => process.exit(0)));
