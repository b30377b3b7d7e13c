/**
 * The admin's command line for speech models, on the service's data dir (also while it runs: the
 * running service reads the manifest afresh for every job):
 *   models list --data DIR
 *   models download NAME --data DIR      (prints progress; Ctrl+C pauses, the next run resumes)
 *   models import PATH [--name NAME] --data DIR
 *   models delete NAME --data DIR
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { stderrLogger } from '../context';
import { WHISPER_CATALOG } from './catalog';
import { importModelFile } from './import';
import { measureInstalled, openSpeechEngines } from './open';
import { gib } from './store';

const USAGE = 'usage: models list | models download NAME | models import PATH [--name NAME] | models delete NAME, each with --data DIR';

export async function modelsCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { data: { type: 'string', default: '.data/service' }, name: { type: 'string' }, 'model-store-max-gb': { type: 'string', default: '64' } },
    strict: true,
  });
  const [verb, arg] = positionals;
  const log = stderrLogger(true);
  const quota = Number(values['model-store-max-gb']) * 1024 ** 3;
  if (!(quota > 0)) throw new Error('--model-store-max-gb must be a positive number');
  const { speech, modelDownloads } = openSpeechEngines(resolve(values.data!), WHISPER_CATALOG, quota, log);
  const store = speech.store;
  const out = (line: string): void => void process.stdout.write(`${line}\n`);

  if (verb === 'list' && !arg) {
    for (const e of speech.list()) out(`engine ${e.id}${e.speed_rtf !== null ? ` (${e.speed_rtf}x real time here)` : ''}`);
    for (const c of store.catalog) {
      const installed = store.find(c.name);
      const state = installed ? `installed ${installed.installed_at}` : modelDownloads.status(c.name).state;
      out(`model ${c.name} ${gib(c.bytes)} ${c.languages === 'multilingual' ? 'multilingual' : c.languages.join(',')} ${state}`);
    }
    return;
  }
  if (verb === 'download' && arg) {
    await modelDownloads.start(arg);
    const stop = () => void modelDownloads.pause(arg).then(() => out('paused; run the same command again to resume'));
    process.once('SIGINT', stop);
    for (;;) {
      const s = modelDownloads.status(arg);
      if (store.find(arg)) return out(`installed ${arg}`);
      if (s.state === 'failed') throw new Error(s.error ?? 'the download failed');
      if (s.state === 'paused' || s.state === 'idle') return;
      process.stderr.write(`\r${s.state} ${Math.floor((100 * s.received) / (s.total || 1))}% of ${gib(s.total)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  if (verb === 'import' && arg) {
    const model = await importModelFile(store, resolve(arg), values.name);
    await measureInstalled(store, model.name, log);
    return out(`installed ${model.name} (${gib(model.bytes)}, sha1 ${model.sha1})`);
  }
  if (verb === 'delete' && arg) {
    if (!store.remove(arg)) throw new Error(`no model called "${arg}" is installed`);
    return out(`deleted ${arg}`);
  }
  throw new Error(USAGE);
}
