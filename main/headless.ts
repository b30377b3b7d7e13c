/**
 * Plain-Node entry: the same core as the Electron app behind the loopback web bridge.
 *   node dist/main/headless.js [--data DIR] [--port N]     browser mode; prints the URL to open
 *       [--local-account-stdin]   the embedded service's account comes as {"email","password"} JSON
 *                                 on stdin's first line and the caller signs in itself (tests);
 *                                 without it the account gets a fresh random password and the app signs in
 * S2T_UPDATE_FEED=URL checks that feed for updates, as the installed app checks its own (to try the notices).
 * Each printed address opens the app in one browser once; every further line on stdin (Enter in
 * the terminal) prints a fresh one, but `open PATH`, which opens the file in the app's pages as a
 * double-click on an associated file does in the installed app.
 */
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { startBackend } from './backend';
import { bridgeMediaLinker } from './ipc/media-route';
import { startWebBridge } from './ipc/web-bridge';
import { openedFilesQueue } from './opened-files';
import { browserModeUpdates } from './updates/feed-for-browser-mode';
import { appDataDir } from './platform/paths';
import { MemorySecretStore } from './platform/secrets';
import { runWatchDaemon } from './watch/daemon';

/** How long stopping may take before the process exits anyway. */
const STOP_DEADLINE_MS = 8000;

const LocalAccountInput = z.object({ email: z.string().min(3).max(320), password: z.string().min(8).max(1024) });

/** stdin as lines: the first one asked for, then each further one to a listener. */
function stdinLines(): { next(): Promise<string>; onEach(listener: (line: string) => void): void } {
  const input = createInterface({ input: process.stdin });
  const waiting: ((line: string) => void)[] = [];
  let listener: ((line: string) => void) | null = null;
  let ended = false;
  input.on('line', (line) => (waiting.length ? waiting.shift()!(line) : listener?.(line)));
  input.on('close', () => {
    ended = true;
    for (const settle of waiting.splice(0)) settle('');
  });
  return {
    next: () => (ended ? Promise.resolve('') : new Promise((resolve) => waiting.push(resolve))),
    onEach: (fn) => void (listener = fn),
  };
}

async function browserMode(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { data: { type: 'string' }, port: { type: 'string', default: '0' }, 'local-account-stdin': { type: 'boolean', default: false } },
    strict: true,
  });
  const dataDir = values.data ?? appDataDir();
  const stdin = stdinLines();
  const localAccount = values['local-account-stdin'] ? LocalAccountInput.parse(JSON.parse(await stdin.next())) : undefined;
  const feed = process.env.S2T_UPDATE_FEED;
  const updates = feed ? browserModeUpdates(feed, dataDir, join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'package.json')) : undefined;
  const backend = await startBackend({ dataDir, secrets: new MemorySecretStore(), localAccount, updates });
  const staticDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'renderer');
  const bridge = await startWebBridge({ handlers: backend.handlers, staticDir, dataDir, port: Number(values.port) });
  backend.setEventSink((event, payload) => bridge.emit(event, payload));
  backend.media.setLinker(bridgeMediaLinker(bridge.secret));
  void updates?.check();
  if (Number(values.port) && bridge.port !== Number(values.port)) process.stderr.write(`s2t: port ${values.port} is taken; serving on ${bridge.port} instead\n`);
  process.stdout.write(`S2T Desktop (browser mode): ${bridge.url}\n`);
  process.stdout.write('This address opens the app in one browser, once. Press Enter here for a fresh one.\n');
  const opened = openedFilesQueue();
  opened.attach((files) => bridge.emit('app.openFiles', files));
  stdin.onEach((line) => {
    const open = /^open (.+)$/.exec(line.trim());
    if (open) opened.fromArgv(['', open[1]], process.cwd());
    else process.stdout.write(`S2T Desktop (browser mode): ${bridge.newUrl()}\n`);
  });
  if (backend.mode === 'local') process.stdout.write(`Local service ${backend.serviceUrl}\n`);
  // A restart that found its port taken runs the service elsewhere: say where, as at start.
  let printed = backend.serviceUrl;
  backend.service?.onStatus((status) => {
    if (status.state !== 'running' || backend.serviceUrl === printed) return;
    printed = backend.serviceUrl;
    process.stdout.write(`Local service moved to ${printed}\n`);
  });
  let stopping = false;
  const stop = async () => {
    // Ctrl+C reaches us twice under npm start (the terminal's and the launcher's): stop once.
    if (stopping) return;
    stopping = true;
    // A close that hangs (a request in flight that never ends) must not keep the app alive; the
    // embedded service then sees its parent gone and stops by itself.
    setTimeout(() => process.exit(1), STOP_DEADLINE_MS).unref();
    await bridge.close();
    await backend.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  // Started by a launcher with a channel (npm start): when the launcher dies, so does the app.
  if (process.channel) process.once('disconnect', () => void stop());
}

const [command, ...rest] = process.argv.slice(2);
const run = command === 'watch'
  ? () => runWatchDaemon(rest).then(() => process.exit(0))
  : () => browserMode(command ? [command, ...rest] : rest);
run().catch((err: Error) => {
  process.stderr.write(`s2t: ${err.message}\n`);
  process.exit(1);
});
