import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LanguageModel } from '../../common/api';
import type { SpeechEngines } from '../engines/registry';

/** Where Debian's pocketsphinx packages put their acoustic models, one directory per language (e.g. en-us). */
const POCKETSPHINX_MODELS = '/usr/share/pocketsphinx/model';

/**
 * The languages the service lists. The cloud's list is larger; these are the common ones, and
 * each is marked engine_supported only when its model is really installed here.
 */
const LANGUAGES: [bcp47: string, name: string, trainable: boolean][] = [
  ['en-US', 'English (United States)', true],
  ['en-GB', 'English (United Kingdom)', true],
  ['nl-NL', 'Dutch (Netherlands)', true],
  ['nl-BE', 'Dutch (Belgium)', false],
  ['de-DE', 'German', true],
  ['fr-FR', 'French (France)', true],
  ['es-ES', 'Spanish (Spain)', true],
  ['it-IT', 'Italian', false],
  ['pt-PT', 'Portuguese (Portugal)', false],
  ['pt-BR', 'Portuguese (Brazil)', false],
  ['pl-PL', 'Polish', false],
  ['sv-SE', 'Swedish', false],
  ['da-DK', 'Danish', false],
  ['nb-NO', 'Norwegian Bokmål', false],
  ['fi-FI', 'Finnish', false],
  ['ru-RU', 'Russian', false],
  ['tr-TR', 'Turkish', false],
  ['ar-SA', 'Arabic', false],
  ['zh-CN', 'Chinese (Mandarin, simplified)', false],
  ['ja-JP', 'Japanese', false],
];

/** The BCP-47 keys the service lists, whatever is installed. */
export function listedLanguages(): string[] {
  return LANGUAGES.map(([bcp47]) => bcp47);
}

const pocketsphinxServes = new Map<string, boolean>();

/**
 * The model list as the installed engines make it: a language is engine_supported when an
 * installed engine serves it (pocketsphinx when its Debian model directory exists, a Whisper model
 * by its languages), has_punctuation is that engine's, and speech_engine names it. pocketsphinx
 * emits bare lower-case words; a Whisper model writes punctuation and casing itself.
 */
export function languageModels(speech: SpeechEngines): LanguageModel[] {
  return LANGUAGES.map(([bcp47, name, trainable], i) => {
    const dir = bcp47.toLowerCase();
    if (!pocketsphinxServes.has(dir)) pocketsphinxServes.set(dir, existsSync(join(POCKETSPHINX_MODELS, dir)));
    const engine = speech.servingEngine(bcp47);
    const supported = engine ? engine.id !== 'pocketsphinx' || pocketsphinxServes.get(dir)! : false;
    // Every installed engine that can run the language, for a person who wants to choose one.
    const engines = speech.recognizers().filter((r) => r.supports(bcp47) && (r.id !== 'pocketsphinx' || pocketsphinxServes.get(dir)!)).map((r) => r.id);
    return { id: i + 1, key: bcp47, bcp47, name, is_private: false, is_trainable: trainable, has_punctuation: supported && engine!.punctuates, engine_supported: supported, speech_engine: supported ? engine!.id : null, speech_engines: engines };
  });
}
