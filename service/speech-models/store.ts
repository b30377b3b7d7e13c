/**
 * The model store: DATA/models/ holds the installed model files, a partial download per model
 * (NAME.part, kept across pause, kill and restart so a download resumes where it stopped, and
 * NAME.paused when a person paused it) and
 * manifest.json, the record of what is installed (name, size, languages, checksum, source,
 * installed at, speed measured here). The manifest is written atomically (temp file, rename).
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { CatalogEntry, ModelName } from './catalog';

export const InstalledModel = z.object({
  name: ModelName,
  label: z.string().max(120),
  file: z.string().regex(/^[a-z0-9._-]+\.bin$/),
  bytes: z.number().int().nonnegative(),
  sha1: z.string().regex(/^[0-9a-f]{40}$/),
  languages: CatalogEntry.shape.languages,
  /** The URL it was downloaded from, or "file" for a file the person already had. */
  source: z.string().max(2000),
  installed_at: z.string(),
  /** Seconds of compute per second of audio, measured on this computer once installed (null: not yet). */
  speed_rtf: z.number().nonnegative().nullable(),
});
export type InstalledModel = z.infer<typeof InstalledModel>;

const Manifest = z.object({ version: z.literal(1), models: z.array(InstalledModel).max(100) });

/** A store larger than this refuses another model (--model-store-max-gb). */
export const DEFAULT_STORE_QUOTA = 64 * 1024 ** 3;

export async function sha1OfFile(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha1');
  for await (const chunk of createReadStream(path, { signal })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export class ModelStore {
  readonly dir: string;

  constructor(
    dataDir: string,
    readonly catalog: readonly CatalogEntry[],
    readonly quotaBytes: number = DEFAULT_STORE_QUOTA,
  ) {
    this.dir = join(dataDir, 'models');
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  private get manifestPath(): string {
    return join(this.dir, 'manifest.json');
  }

  /** The installed models; a manifest that fails its schema is reported, never guessed at. */
  installed(): InstalledModel[] {
    if (!existsSync(this.manifestPath)) return [];
    const parsed = Manifest.safeParse(JSON.parse(readFileSync(this.manifestPath, 'utf8')));
    if (!parsed.success) throw new Error(`The model manifest ${this.manifestPath} is not readable (${parsed.error.issues[0]?.message}); move it aside to start afresh.`);
    return parsed.data.models;
  }

  find(name: string): InstalledModel | undefined {
    return this.installed().find((m) => m.name === name);
  }

  catalogEntry(name: string): CatalogEntry | undefined {
    return this.catalog.find((c) => c.name === name);
  }

  pathOf(model: Pick<InstalledModel, 'file'>): string {
    return join(this.dir, model.file);
  }

  partPath(name: string): string {
    return join(this.dir, `${ModelName.parse(name)}.part`);
  }

  /** The mark of a download a person paused: it waits for them, where one cut short by a kill or a restart carries on by itself. */
  private pausedMark(name: string): string {
    return join(this.dir, `${ModelName.parse(name)}.paused`);
  }

  isPaused(name: string): boolean {
    return existsSync(this.pausedMark(name));
  }

  setPaused(name: string, paused: boolean): void {
    if (paused) writeFileSync(this.pausedMark(name), '', { mode: 0o600 });
    else rmSync(this.pausedMark(name), { force: true });
  }

  /** Bytes of a partial download already on disk (0: none). */
  partBytes(name: string): number {
    try {
      return statSync(this.partPath(name)).size;
    } catch {
      return 0;
    }
  }

  /** Bytes the store holds: installed models and partial downloads. */
  usedBytes(): number {
    const parts = this.catalog.reduce((n, c) => n + this.partBytes(c.name), 0);
    return this.installed().reduce((n, m) => n + m.bytes, 0) + parts;
  }

  /** Refuses, in words, a model of `bytes` more that the disk or the store's quota cannot hold. */
  async assertRoomFor(bytes: number): Promise<void> {
    const fs = await statfs(this.dir);
    const free = fs.bavail * fs.bsize;
    // A margin, so a model never fills the disk the recordings and the database live on.
    const margin = Math.min(512 * 1024 ** 2, Math.floor(fs.blocks * fs.bsize * 0.02));
    if (bytes + margin > free) throw new RoomError(`Not enough disk space for this model: it needs ${gib(bytes)} and ${gib(Math.max(0, free - margin))} is free.`);
    if (this.usedBytes() + bytes > this.quotaBytes) throw new RoomError(`The model store's limit of ${gib(this.quotaBytes)} would be exceeded (${gib(this.usedBytes())} in use, this model needs ${gib(bytes)}).`);
  }

  /** Moves a verified file into place and records it. */
  install(file: string, model: Omit<InstalledModel, 'file' | 'installed_at' | 'speed_rtf'>): InstalledModel {
    const record: InstalledModel = { ...model, file: `ggml-${model.name}.bin`, installed_at: new Date().toISOString(), speed_rtf: null };
    renameSync(file, this.pathOf(record));
    this.write([...this.installed().filter((m) => m.name !== model.name), record]);
    return record;
  }

  remove(name: string): boolean {
    const model = this.find(name);
    if (!model) return false;
    this.write(this.installed().filter((m) => m.name !== name));
    rmSync(this.pathOf(model), { force: true });
    return true;
  }

  setSpeed(name: string, rtf: number): void {
    this.write(this.installed().map((m) => (m.name === name ? { ...m, speed_rtf: Math.round(rtf * 1000) / 1000 } : m)));
  }

  private write(models: InstalledModel[]): void {
    const tmp = `${this.manifestPath}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ version: 1, models }, null, 2), { mode: 0o600 });
    renameSync(tmp, this.manifestPath);
  }
}

export class RoomError extends Error {}

export function gib(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${Math.max(0.1, bytes / 1024 ** 2).toFixed(1)} MB`;
}
