// Builds the live-transcription decoder (native/stream-decoder, over Debian's libpocketsphinx-dev)
// during `npm install` / `npm ci`. A failed build does not fail the install: the service then
// answers realtime requests with a message that says the decoder is not built, and how to build it.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const gyp = join(dirname(createRequire(import.meta.url).resolve('node-gyp/package.json')), 'bin', 'node-gyp.js');
const run = spawnSync(process.execPath, [gyp, 'rebuild', '--silent'], { cwd: join(root, 'native', 'stream-decoder'), stdio: 'inherit' });
if (run.status !== 0) {
  console.warn('\nS2T: the live-transcription decoder was not built (needs build-essential, pkg-config and libpocketsphinx-dev).');
  console.warn('Live transcription stays off until `npm run build:native` succeeds; everything else works.\n');
}
