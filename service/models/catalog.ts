import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LanguageModel } from '../../common/api';

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

/**
 * pocketsphinx, the only recognizer here, emits lower-case words without punctuation, and there
 * is no punctuation model. The legacy `punctuation` key only closes each pause-delimited segment
 * with a full stop (engines/punctuate.ts), which is not punctuation a model found.
 */
const ENGINE_PUNCTUATES = false;

let cached: LanguageModel[] | undefined;

/** The model list, with the installed engine's languages found once per process. */
export function languageModels(): LanguageModel[] {
  cached ??= LANGUAGES.map(([bcp47, name, trainable], i) => {
    const engineSupported = existsSync(join(POCKETSPHINX_MODELS, bcp47.toLowerCase()));
    return { id: i + 1, key: bcp47, bcp47, name, is_private: false, is_trainable: trainable, has_punctuation: ENGINE_PUNCTUATES, engine_supported: engineSupported };
  });
  return cached;
}
