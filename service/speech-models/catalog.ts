/**
 * The Whisper models a person can download: whisper.cpp's published ggml files, at their official
 * location, with the SHA-1 checksums whisper.cpp publishes for them (models/README.md there).
 * Sizes are the published ones, used for the disk-space check before a download starts; the
 * server's Content-Length is what a download is held to.
 */
import { z } from 'zod';

export const ModelName = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'a model name is lower-case letters, digits, dot, dash or underscore (at most 64)');

export const CatalogEntry = z.object({
  name: ModelName,
  /** What a person reads in the model manager. */
  label: z.string().max(120),
  url: z.url({ protocol: /^https?$/ }),
  sha1: z.string().regex(/^[0-9a-f]{40}$/),
  bytes: z.number().int().positive(),
  /** 'multilingual' serves every language Whisper knows; otherwise the listed keys. */
  languages: z.union([z.literal('multilingual'), z.array(z.string().min(2).max(8)).min(1)]),
});
export type CatalogEntry = z.infer<typeof CatalogEntry>;

const MiB = 1024 * 1024;
const SOURCE = 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main';

const entry = (name: string, label: string, sha1: string, mib: number): CatalogEntry => ({
  name,
  label,
  url: `${SOURCE}/ggml-${name}.bin`,
  sha1,
  bytes: Math.round(mib * MiB),
  languages: name.endsWith('.en') ? ['en'] : 'multilingual',
});

export const WHISPER_CATALOG: readonly CatalogEntry[] = [
  entry('tiny', 'Whisper tiny (fastest, least accurate)', 'bd577a113a864445d4c299885e0cb97d4ba92b5f', 75),
  entry('tiny.en', 'Whisper tiny, English only', 'c78c86eb1a8faa21b369bcd33207cc90d64ae9df', 75),
  entry('base', 'Whisper base', '465707469ff3a37a2b9b8d8f89f2f99de7299dac', 142),
  entry('base.en', 'Whisper base, English only', '137c40403d78fd54d454da0f9bd998f78703390c', 142),
  entry('small', 'Whisper small (good balance)', '55356645c2b361a969dfd0ef2c5a50d530afd8d5', 466),
  entry('small.en', 'Whisper small, English only', 'db8a495a91d927739e50b3fc1cc4c6b8f6c2d022', 466),
  entry('medium', 'Whisper medium', 'fd9727b6e1217c2f614f9b698455c4ffd82463b4', 1536),
  entry('medium.en', 'Whisper medium, English only', '8c30f0e44ce9560643ebd10bbe50cd20eafd3723', 1536),
  entry('large-v3', 'Whisper large v3 (most accurate, slowest)', 'ad82bf6a9043ceed055076d0fd39f5f186ff8062', 2970),
];

/**
 * Whisper's language keys for the service's BCP-47 languages (nb is Whisper's "no"). A multilingual
 * model serves all of these; an English-only one serves en.
 */
export function whisperLanguage(bcp47: string): string {
  const base = bcp47.toLowerCase().split(/[-_]/)[0];
  return base === 'nb' ? 'no' : base === 'english' ? 'en' : base;
}

const WHISPER_KEYS = new Set(['en', 'nl', 'de', 'fr', 'es', 'it', 'pt', 'pl', 'sv', 'da', 'no', 'fi', 'ru', 'tr', 'ar', 'zh', 'ja', 'ko', 'uk', 'cs', 'el', 'he', 'hi', 'hu', 'id', 'ro', 'vi', 'ca']);

export function modelServes(languages: CatalogEntry['languages'], bcp47: string): boolean {
  const key = whisperLanguage(bcp47);
  return languages === 'multilingual' ? WHISPER_KEYS.has(key) : languages.includes(key);
}
