/**
 * The model store, the engines behind it and the downloads, opened once per service. A model that
 * finishes installing has its speed measured here in the background (whisper.cpp's bench), so the
 * model manager can say how fast it runs on this computer.
 */
import type { Logger } from '../context';
import { SpeechEngines } from '../engines/registry';
import { measureSpeed } from '../engines/whisper';
import type { CatalogEntry } from './catalog';
import { ModelDownloads } from './download';
import { ModelStore } from './store';

export function openSpeechEngines(dataDir: string, catalog: readonly CatalogEntry[], quotaBytes: number, log: Logger): { speech: SpeechEngines; modelDownloads: ModelDownloads } {
  const store = new ModelStore(dataDir, catalog, quotaBytes);
  const speech = new SpeechEngines(store);
  const modelDownloads = new ModelDownloads(store, { installed: (name) => void measureInstalled(store, name, log), log: (msg, fields) => log.info(msg, fields) });
  return { speech, modelDownloads };
}

export async function measureInstalled(store: ModelStore, name: string, log: Logger): Promise<void> {
  const model = store.find(name);
  if (!model) return;
  try {
    store.setSpeed(name, await measureSpeed(store.pathOf(model)));
  } catch (e) {
    log.warn('speech model speed not measured', { name, error: (e as Error).message });
  }
}
