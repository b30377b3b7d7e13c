/**
 * Child process of bench/watch.bench.ts, the peer of the watch uploader's memory: the same file
 * uploaded by tus-js-client alone, from its path, with the uploader's chunk size and nothing else of
 * the app. argv: URL TOKEN FILE; prints `start`, then `done` when the upload is complete.
 */
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import * as tus from 'tus-js-client';
import { TUS_PATH } from '../common/api';
import { DEFAULT_CHUNK } from '../main/watch/upload';

const [url, token, file] = process.argv.slice(2);
process.stdout.write('start\n');
await new Promise<void>((resolve, reject) => {
  const upload = new tus.Upload(createReadStream(file), {
    endpoint: url + TUS_PATH,
    uploadSize: statSync(file).size,
    chunkSize: DEFAULT_CHUNK,
    metadata: { filename: basename(file), filetype: 'audio/wav' },
    headers: { Authorization: `Bearer ${token}` },
    onSuccess: () => resolve(),
    onError: reject,
  });
  upload.start();
});
process.stdout.write('done\n');
