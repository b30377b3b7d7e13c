/**
 * "Use a model file I already have": a ggml Whisper file on this computer is checked (the ggml
 * magic, then whisper.cpp must load it), copied into the store and recorded. Its name comes from
 * the published checksum when it is one of whisper.cpp's models, else from the file name; its
 * languages from the vocabulary size in its header (51865 or more: multilingual).
 */
import { copyFile, open, rm, stat } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import { releaseModel } from '../engines/whisper';
import { ModelName, type CatalogEntry } from './catalog';
import { RoomError, sha1OfFile, type InstalledModel, type ModelStore } from './store';

const GGML_MAGIC = 0x67676d6c;
const MULTILINGUAL_VOCAB = 51865;

export class ImportRefused extends Error {
  constructor(
    message: string,
    readonly status: 404 | 409 | 422 | 507,
  ) {
    super(message);
  }
}

async function readHeader(path: string): Promise<{ vocab: number }> {
  const fh = await open(path, 'r');
  try {
    const b = Buffer.alloc(8);
    const { bytesRead } = await fh.read(b, 0, 8, 0);
    if (bytesRead < 8 || b.readUInt32LE(0) !== GGML_MAGIC) throw new ImportRefused('This file is not a whisper.cpp model (ggml format; the files are named like ggml-base.bin).', 422);
    return { vocab: b.readInt32LE(4) };
  } finally {
    await fh.close();
  }
}

/** Loads a model file once with whisper.cpp and frees it: a file it cannot load is refused before it is installed. */
async function loadsInWhisper(path: string): Promise<void> {
  const { initWhisper } = await import('@fugood/whisper.node');
  let ctx;
  try {
    ctx = await initWhisper({ filePath: path, useGpu: false });
  } catch (e) {
    throw new ImportRefused(`whisper.cpp could not load this file (${(e as Error).message}); it is damaged or not a Whisper model.`, 422);
  }
  await ctx.release();
}

export async function importModelFile(store: ModelStore, path: string, wanted?: string): Promise<InstalledModel> {
  if (!isAbsolute(path)) throw new ImportRefused('Give the model file as a full path.', 422);
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw new ImportRefused(`There is no file at ${path}.`, 404);
  const { vocab } = await readHeader(path);
  const sha1 = await sha1OfFile(path);
  const known: CatalogEntry | undefined = store.catalog.find((c) => c.sha1 === sha1);
  const stem = basename(path).replace(/\.bin$/i, '').replace(/^ggml-/, '').toLowerCase().replace(/[^a-z0-9._-]+/g, '-');
  const parsedName = ModelName.safeParse(wanted ?? known?.name ?? stem);
  if (!parsedName.success) throw new ImportRefused(`"${wanted ?? stem}" cannot name a model: ${parsedName.error.issues[0]?.message}.`, 422);
  const name = parsedName.data;
  if (store.find(name)) throw new ImportRefused(`A model called "${name}" is already installed; delete it first or give another name.`, 409);
  try {
    await store.assertRoomFor(info.size);
  } catch (e) {
    if (e instanceof RoomError) throw new ImportRefused(e.message, 507);
    throw e;
  }
  const tmp = join(store.dir, `${name}.import`);
  try {
    await copyFile(path, tmp);
    await loadsInWhisper(tmp);
    await releaseModel(store.pathOf({ file: `ggml-${name}.bin` }));
    return store.install(tmp, {
      name,
      label: known?.label ?? `Whisper model from ${basename(path)}`,
      bytes: info.size,
      sha1,
      languages: known?.languages ?? (vocab >= MULTILINGUAL_VOCAB ? 'multilingual' : ['en']),
      source: 'file',
    });
  } finally {
    await rm(tmp, { force: true });
  }
}
