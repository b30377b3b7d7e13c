/**
 * Which distributed queue a job goes to, and which queues a worker takes from. A queue is one
 * engine in one language (`s2t-decode-en-us`), or one engine alone when it runs any language
 * (`s2t-upload`), so a job only ever reaches a worker that said it can run it. What a worker can
 * run is read from the service's engine list and the language models installed on its machine,
 * so a new engine is advertised without a change here; translation by the Apertium modes
 * installed (`s2t-translate-eng-spa`), summaries anywhere (`s2t-summarize`).
 */
import type { SpeechEngines } from '../engines/registry';
import { engines, type Engine } from '../engines';
import { languageModels } from '../models/catalog';
import { installedModes } from '../engines/translate';
import type { Capability } from './protocol';

const PREFIX = 's2t';

/** How a language is spelled in a queue name: lower case, `_` as `-` (en_US, EN-us -> en-us). */
export function languageKey(language: string): string {
  return language.trim().toLowerCase().replace(/_/g, '-').replace(/[^a-z0-9-]/g, '');
}

export function queueName(kind: Engine['name'], language: string): string {
  const engine = engines[kind];
  return engine.supports ? `${PREFIX}-${kind}-${languageKey(language) || 'none'}` : `${PREFIX}-${kind}`;
}

/**
 * What this machine can run: each engine with the languages whose model is installed here and the
 * engine accepts (each catalog language and its base code, en-US and en), or null for any language.
 */
export function localCapabilities(speech: SpeechEngines): Capability[] {
  const installed = languageModels(speech).filter((m) => m.engine_supported).map((m) => m.bcp47);
  const spellings = [...new Set(installed.flatMap((l) => [languageKey(l), languageKey(l.split('-')[0])]))];
  return Object.values(engines).map((e) => ({ engine: e.name, languages: e.supports ? spellings.filter((l) => e.supports!(l)) : null }));
}

/** The document work this machine can run: summaries, and translation in each Apertium mode installed here (eng-spa). */
export async function documentCapabilities(): Promise<Capability[]> {
  const modes = (await installedModes()).filter((m) => /^[a-z0-9-]{1,32}$/.test(m)).slice(0, 200);
  return [{ engine: 'summarize', languages: null }, { engine: 'translate', languages: modes }];
}

/** Every engine a worker may be limited to (`--engines`). */
export const ENGINE_NAMES = [...Object.keys(engines), 'translate', 'summarize'];

/** The queue names a worker with these capabilities takes jobs from. */
export function queuesFor(capabilities: Capability[]): string[] {
  return capabilities.flatMap((c) => (c.languages === null ? [`${PREFIX}-${c.engine}`] : c.languages.map((l) => `${PREFIX}-${c.engine}-${l}`)));
}
