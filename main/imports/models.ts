/**
 * The service's languages for the New transcription dialog and the checks before an upload:
 * asked of the service (GET /models needs the batch key, which main/api/client.ts handles), kept
 * in a small JSON file so the dialog and the checks work offline (then `stale`).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { ModelChoice } from '../../common/ipc';
import type { ApiClient } from '../api/client';
import { classifyFailure, isTransient } from '../api/failure';

const CacheFile = z.object({ models: z.array(ModelChoice), savedAt: z.string() });

export class ModelsList {
  constructor(
    private readonly client: ApiClient,
    /** Where the last list the service gave is kept. */
    private readonly file: string,
  ) {}

  /** The service's list; the cached one (stale) when the service cannot be reached; null when neither exists. */
  async list(): Promise<{ models: ModelChoice[]; stale: boolean } | null> {
    try {
      const res = await this.client.call('models.list', { query: {} }, { timeoutMs: 15_000 });
      const models = res.result.map((m) => ({ key: m.key, name: m.name, supported: m.engine_supported !== false, hasPunctuation: m.has_punctuation ?? false }));
      this.save(models);
      return { models, stale: false };
    } catch (err) {
      const cached = this.cached();
      if (cached) return { models: cached, stale: true };
      if (isTransient(classifyFailure(err))) return null;
      throw err;
    }
  }

  private cached(): ModelChoice[] | null {
    try {
      return CacheFile.parse(JSON.parse(readFileSync(this.file, 'utf8'))).models;
    } catch {
      return null;
    }
  }

  private save(models: ModelChoice[]): void {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify({ models, savedAt: new Date().toISOString() }));
    renameSync(tmp, this.file);
  }
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
