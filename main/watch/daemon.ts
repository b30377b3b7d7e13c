/**
 * The headless watch daemon: the same watcher as the app, without Electron.
 *   npm run watch -- FOLDER [--language en] [--formats srt,vtt,docx] [--service URL] [--data DIR]
 *                  [--concurrency N] [--stability-ms MS]
 * Without --service (or a cloud account in the app's settings) it starts the embedded local
 * service and signs in with its owner account;
 * with --service it signs in with S2T_USERNAME / S2T_PASSWORD, or uses the API token S2T_TOKEN
 * (from the environment, never the command line, so they stay out of the process list).
 * Data (queue, tus upload URLs, the embedded service's data) lives in the app-data dir or --data.
 * Stops cleanly on SIGINT/SIGTERM; the queue is kept and resumes at the next start.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ExportFormat } from '../../common/api';
import { WatchProfile, type WatchProgress } from '../../common/ipc';
import { ApiClient } from '../api/client';
import { appDataDir } from '../platform/paths';
import { confSettingsFile } from '../platform/settings-file';
import { superviseEmbeddedService, type ServiceSupervisor } from '../service-supervisor';
import { effectiveServiceUrl, SettingsStore } from '../settings';
import { PasswordAuth, TokenAuth } from './auth';
import { WatchService } from './service';

const USAGE = 'usage: npm run watch -- FOLDER [--language en] [--formats srt,vtt,docx] [--service URL] [--data DIR]';

function human(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  while (bytes >= 1024 && i < units.length - 1) {
    bytes /= 1024;
    i++;
  }
  return `${bytes.toFixed(i ? 1 : 0)} ${units[i]}`;
}

export function progressLine(p: WatchProgress): string {
  const parts = [`[${p.itemId}]`, p.state];
  if (p.state === 'uploading') {
    parts.push(`${p.percent.toFixed(1)}%`, `${human(p.bytesSent)}/${human(p.bytesTotal)}`);
    if (p.rate !== null) parts.push(`${human(p.rate)}/s`);
    if (p.etaSeconds !== null) parts.push(`ETA ${Math.ceil(p.etaSeconds)}s`);
  }
  if (p.message) parts.push(`(${p.message})`);
  parts.push(p.path);
  return parts.join(' ');
}

export async function runWatchDaemon(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      language: { type: 'string', default: 'en' },
      formats: { type: 'string', default: 'srt,txt' },
      service: { type: 'string' },
      data: { type: 'string' },
      concurrency: { type: 'string', default: '3' },
      'stability-ms': { type: 'string', default: '2000' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || positionals.length === 0) throw new Error(USAGE);
  const formats = values.formats!.split(',').map((f) => f.trim().toLowerCase()).filter(Boolean);
  const bad = formats.filter((f) => !ExportFormat.safeParse(f).success);
  if (bad.length) throw new Error(`unknown format ${bad.join(', ')} (known: ${ExportFormat.options.join(', ')})`);
  const profile = WatchProfile.parse({ language: values.language, formats: formats.map((format) => ({ format, options: {} })) });
  const dataDir = values.data ?? appDataDir();
  const out = (line: string) => process.stdout.write(`${line}\n`);

  let embedded: ServiceSupervisor | undefined;
  // The app's settings (the same settings.json): a cloud account chosen there is the default.
  let baseUrl = values.service ?? effectiveServiceUrl(new SettingsStore(confSettingsFile(dataDir)).get()) ?? undefined;
  let auth: PasswordAuth | TokenAuth;
  if (!baseUrl) {
    // Supervised as in the app: a crash or a hang restarts it (on the same address unless that was
    // taken; the client asks for the address at each request), and the queue goes on (uploads
    // waiting meanwhile are retried as offline).
    embedded = await superviseEmbeddedService({ dataDir: join(dataDir, 'local-service') });
    embedded.onStatus((s) => out(s.state === 'running' ? 'local service running again' : `local service ${s.state}${s.message ? `: ${s.message}` : ''}`));
    baseUrl = embedded.url;
    auth = new PasswordAuth(embedded.owner.email, embedded.owner.password);
  } else if (process.env.S2T_TOKEN) {
    auth = new TokenAuth(process.env.S2T_TOKEN);
  } else if (process.env.S2T_USERNAME && process.env.S2T_PASSWORD) {
    auth = new PasswordAuth(process.env.S2T_USERNAME, process.env.S2T_PASSWORD);
  } else {
    throw new Error('--service needs credentials: set S2T_TOKEN, or S2T_USERNAME and S2T_PASSWORD');
  }
  const service = embedded;
  const client = new ApiClient({ baseUrl: service ? () => service.url : baseUrl, auth: auth.asAuthSource() });
  if (auth instanceof PasswordAuth) auth.attach(client);

  const lastState = new Map<number, string>();
  let lastLine = 0;
  const watch = new WatchService({
    dataDir: join(dataDir, 'watch'),
    client,
    auth,
    concurrency: Math.max(1, Number(values.concurrency)),
    stabilityMs: Math.max(100, Number(values['stability-ms'])),
    onProgress: (p) => {
      const now = Date.now();
      // Every state change; upload progress at most once a second.
      if (lastState.get(p.itemId) !== p.state || p.message || now - lastLine >= 1000) {
        lastState.set(p.itemId, p.state);
        lastLine = now;
        out(progressLine(p));
      }
      if (p.state === 'delivered' || p.state === 'failed') lastState.delete(p.itemId);
    },
    onDetected: (f) => out(`${f.created ? 'queued' : 'already known'} [${f.itemId}] ${f.path}`),
    onError: (where, err) => process.stderr.write(`watch: ${where}: ${err.message}\n`),
  });
  try {
    for (const folder of positionals) await watch.addFolder(folder, profile);
    await watch.start();
  } catch (err) {
    await watch.close().catch(() => {});
    await embedded?.stop();
    throw err;
  }
  out(`watching ${positionals.join(', ')} -> ${formats.join(', ')} (${values.language}) via ${baseUrl}`);

  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      out(`${signal}: stopping; the queue is kept`);
      void watch
        .close()
        .then(() => embedded?.stop())
        .finally(resolve);
    };
    // Listeners that stay: signal-exit (loaded by tus-js-client's file lock, proper-lockfile) re-raises a signal
    // nobody else listens to any more, which killed the daemon mid-stop (exit by SIGINT, not 0).
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
  });
}
