/**
 * Plain-Node entry: the same core as the Electron app behind the loopback web bridge.
 *   node dist/main/headless.js [--data DIR] [--port N]     browser mode; prints the URL to open
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startBackend } from './backend';
import { DEMO_ACCOUNT } from './embedded-service';
import { startWebBridge } from './ipc/web-bridge';
import { appDataDir } from './platform/paths';
import { MemorySecretStore } from './platform/secrets';
import { runWatchDaemon } from './watch/daemon';

async function browserMode(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { data: { type: 'string' }, port: { type: 'string', default: '0' } }, strict: true });
  const dataDir = values.data ?? appDataDir();
  const backend = await startBackend({ dataDir, secrets: new MemorySecretStore() });
  const staticDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'renderer');
  const bridge = await startWebBridge({ handlers: backend.handlers, staticDir, port: Number(values.port) });
  backend.setEventSink((event, payload) => bridge.emit(event, payload));
  process.stdout.write(`S2T Desktop (browser mode): ${bridge.url}\n`);
  if (backend.mode === 'local') process.stdout.write(`Local service ${backend.serviceUrl}, demo account ${DEMO_ACCOUNT.email} / ${DEMO_ACCOUNT.password}\n`);
  const stop = async () => {
    await bridge.close();
    await backend.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

const [command, ...rest] = process.argv.slice(2);
const run = command === 'watch'
  ? () => runWatchDaemon(rest).then(() => process.exit(0))
  : () => browserMode(command ? [command, ...rest] : rest);
run().catch((err: Error) => {
  process.stderr.write(`s2t: ${err.message}\n`);
  process.exit(1);
});
