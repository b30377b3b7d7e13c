/**
 * Which distributed queue a job goes to, and which queues a worker takes from. A queue is one
 * engine in one language (`s2t-decode-en-us`), or one engine alone when it runs any language
 * (`s2t-upload`), so a job only ever reaches a worker that said it can run it; a job that names a
 * speech engine goes to that engine's own queue (`s2t-decode--whisper-small`). What a worker can
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

/** How a speech engine id is spelled in a queue name: whisper:small -> whisper-small. */
export function engineKey(id: string): string {
  return id.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

/** The separator of a named speech engine in a queue name (language keys hold single dashes only). */
const ENGINE_MARK = '--';

/**
 * A job that names a speech engine goes to that engine's own queue, which only the workers running
 * it take from; one queue per engine, not per language, since a model serves the same languages on
 * every machine (the API node checks the language against what the workers advertised).
 */
export function queueName(kind: Engine['name'], language: string, speechEngine?: string | null): string {
  const engine = engines[kind];
  if (!engine.supports) return `${PREFIX}-${kind}`;
  if (speechEngine) return `${PREFIX}-${kind}${ENGINE_MARK}${engineKey(speechEngine)}`;
  return `${PREFIX}-${kind}-${languageKey(language) || 'none'}`;
}

/**
 * What this machine can run: each engine with the languages an installed recogniser serves here
 * (each catalog language and its base code, en-US and en), or null for any language;
 * then the same for each installed speech engine on its own, for jobs that name one.
 */
export function localCapabilities(speech: SpeechEngines): Capability[] {
  const models = languageModels(speech);
  const spellings = (bcp47: string[]) => [...new Set(bcp47.flatMap((l) => [languageKey(l), languageKey(l.split('-')[0])]))];
  const installed = spellings(models.filter((m) => m.engine_supported).map((m) => m.bcp47));
  // The languages come from the installed recognisers (a Whisper model serves German where pocketsphinx does not), not the engine's own English-only check.
  const general = Object.values(engines).map((e) => ({ engine: e.name, languages: e.supports ? installed : null }));
  const named = speech.recognizers().flatMap((r) => {
    const served = spellings(models.filter((m) => m.speech_engines?.includes(r.id)).map((m) => m.bcp47));
    return Object.values(engines)
      .filter((e) => e.supports)
      .map((e) => ({ engine: e.name, speech_engine: r.id, languages: served }));
  });
  return [...general, ...named];
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
  return capabilities.flatMap((c) => {
    if (c.speech_engine) return [`${PREFIX}-${c.engine}${ENGINE_MARK}${engineKey(c.speech_engine)}`];
    return c.languages === null ? [`${PREFIX}-${c.engine}`] : c.languages.map((l) => `${PREFIX}-${c.engine}-${l}`);
  });
}
