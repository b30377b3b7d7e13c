/**
 * The service's languages for the New transcription dialog and the checks before an upload:
 * asked of the service (GET /models needs the batch key, which main/api/client.ts handles), kept
 * in a small JSON file so the dialog and the checks work offline (then `stale`).
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { AccountChoice, ModelChoice, type GlossaryDraft } from '../../common/ipc';
import type { ApiClient } from '../api/client';
import { classifyFailure, isTransient } from '../api/failure';
import { writeAtomic } from '../platform/write-atomic';

const CacheFile = z.object({ models: z.array(ModelChoice), savedAt: z.string() });
const AccountCache = z.object({ glossaries: z.array(AccountChoice), customModels: z.array(AccountChoice), savedAt: z.string() });
type AccountLists = { glossaries: AccountChoice[]; customModels: AccountChoice[] };
/** The fields the dialog shows; the routes' rows are typed loosely (the spec shows a custom model's id only). */
const GlossaryRow = z.looseObject({ id: z.number(), name: z.string(), source_language: z.string() });
const GlossaryWithEntries = GlossaryRow.extend({ entries: z.array(z.object({ source: z.string(), target: z.string() })).optional() });
const CustomModelRow = z.looseObject({ id: z.union([z.number(), z.string()]), name: z.string().optional(), language: z.string().optional() });

/** More than a dialog's select can usefully show; the rest stays on the service. */
const MAX_ACCOUNT_ITEMS = 500;

export class ModelsList {
  constructor(
    readonly client: ApiClient,
    /** Where the last list the service gave is kept. */
    private readonly file: string,
  ) {}

  /** The service's list; the cached one (stale) when the service cannot be reached; null when neither exists. */
  async list(): Promise<{ models: ModelChoice[]; stale: boolean } | null> {
    try {
      const res = await this.client.call('models.list', { query: {} }, { timeoutMs: 15_000 });
      const models = res.result.map((m) => ({ key: m.key, name: m.name, supported: m.engine_supported !== false, hasPunctuation: m.has_punctuation ?? false, engine: m.speech_engine ?? null, ...(m.speech_engines ? { engines: m.speech_engines } : {}) }));
      await saveCache(this.file, { models });
      return { models, stale: false };
    } catch (err) {
      const cached = (await readCache(this.file, CacheFile))?.models;
      if (cached) return { models: cached, stale: true };
      if (isTransient(classifyFailure(err))) return null;
      throw err;
    }
  }

  /**
   * The account's glossaries and custom models for the dialog, kept beside the languages (in
   * account-lists.json) for offline use; null when neither the service nor a cached copy answers.
   */
  async accountLists(): Promise<(AccountLists & { stale: boolean }) | null> {
    const file = join(dirname(this.file), 'account-lists.json');
    try {
      const lists: AccountLists = { glossaries: [], customModels: [] };
      for await (const row of this.client.items('glossaries.list', { query: {} }, { timeoutMs: 15_000 })) {
        const g = GlossaryRow.parse(row);
        lists.glossaries.push({ id: g.id, name: g.name, language: g.source_language });
        if (lists.glossaries.length >= MAX_ACCOUNT_ITEMS) break;
      }
      for await (const row of this.client.items('customModels.list', { query: {} }, { timeoutMs: 15_000 })) {
        const m = CustomModelRow.parse(row);
        lists.customModels.push({ id: m.id, name: m.name || `Custom model ${m.id}`, language: m.language ?? '' });
        if (lists.customModels.length >= MAX_ACCOUNT_ITEMS) break;
      }
      await saveCache(file, lists);
      return { ...lists, stale: false };
    } catch (err) {
      const cached = await readCache(file, AccountCache);
      if (cached) return { glossaries: cached.glossaries, customModels: cached.customModels, stale: true };
      if (isTransient(classifyFailure(err))) return null;
      throw err;
    }
  }
}

/** One glossary with its terms (at most the 1000 a draft holds). */
export async function readGlossary(client: ApiClient, id: number): Promise<GlossaryDraft> {
  const res = await client.call('glossaries.get', { params: { id }, query: { include_entries: true, limit: 1000 } }, { timeoutMs: 15_000 });
  const g = GlossaryWithEntries.parse(res.result);
  return { id: g.id, name: g.name, language: g.source_language, entries: g.entries ?? [] };
}

/** Creates or replaces a glossary on the service; answers its id. */
export async function saveGlossary(client: ApiClient, d: GlossaryDraft): Promise<number> {
  if (d.id === null) {
    const res = await client.call('glossaries.create', { body: { name: d.name, source_language: d.language, target_language: null, entries: d.entries } }, { timeoutMs: 15_000 });
    return res.result.id;
  }
  await client.call('glossaries.update', { params: { id: d.id }, body: { name: d.name, entries: d.entries } }, { timeoutMs: 15_000 });
  return d.id;
}

/** A cache file's content, or null when there is none or it does not read as `schema`. */
async function readCache<T extends z.ZodType>(file: string, schema: T): Promise<z.output<T> | null> {
  try {
    return schema.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    return null;
  }
}

/** Kept with the time it was saved; the user's alone. */
function saveCache(file: string, value: object): Promise<void> {
  return writeAtomic(file, JSON.stringify({ ...value, savedAt: new Date().toISOString() }), { mode: 0o600, dirMode: 0o700 });
}

/** Why a language cannot be used, or null when it can (or when no list is known yet: the service decides then). */
export function languageProblem(language: string, models: ModelChoice[] | null): string | null {
  if (!models) return null;
  const m = models.find((x) => x.key.toLowerCase() === language.toLowerCase());
  // A bare language ("en", the watch profile's default) stands for its supported regional models.
  if (!m && !language.includes('-') && models.some((x) => x.supported && x.key.toLowerCase().startsWith(`${language.toLowerCase()}-`))) return null;
  if (!m) return `the language "${language}" is not in the service's list of languages`;
  if (!m.supported) return `${m.name} (${m.key}) is listed but this service cannot transcribe it`;
  return null;
}
