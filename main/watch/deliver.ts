/**
 * Writes a finished job's documents as the profile's export files, atomically: each is written to
 * a hidden temp file in the target folder and renamed into place, so no reader (nor our own
 * watcher) ever sees half a file.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { CAPTION_FORMATS, type Document, type ExportFormat } from '../../common/api';
import { FORMAT_FILES, renderExport, type ExportOptions } from '../../common/formats';
import type { WatchFolder } from '../../common/ipc';
import { DONE_DIR, FAILED_DIR, outputDirOf } from './ignore';

/** Fonts for PDF export (common/ never reads files); the Debian fonts-dejavu-core paths. */
const PDF_FONTS = ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'];
let pdfFont: Promise<Uint8Array | undefined> | null = null;
function loadPdfFont(): Promise<Uint8Array | undefined> {
  pdfFont ??= (async () => {
    const file = PDF_FONTS.find((f) => existsSync(f));
    return file ? new Uint8Array(await readFile(file)) : undefined;
  })();
  return pdfFont;
}

/** Writes bytes to `target` through a temp file in the same folder and a rename. */
export async function writeAtomic(target: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const temp = join(dirname(target), `.s2t-${basename(target)}.${randomBytes(4).toString('hex')}.tmp`);
  const fh = await open(temp, 'w', 0o644);
  try {
    await fh.writeFile(bytes);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** Picks the document a format is best made from: captions from a caption document, text from a transcript. */
function pick(docs: Document[], format: ExportFormat): Document | undefined {
  const wantCaption = (CAPTION_FORMATS as readonly string[]).includes(format);
  const withBody = docs.filter((d) => d.document);
  return withBody.find((d) => (d.type === 'caption') === wantCaption) ?? withBody[0];
}

/** Where a media file's outputs go: beside it, or the same relative place under the output folder. */
export function outputBase(folder: WatchFolder, mediaPath: string): string {
  const out = outputDirOf(folder);
  const stem = basename(mediaPath, extname(mediaPath));
  if (!out) return join(dirname(mediaPath), stem);
  return join(out, dirname(relative(resolve(folder.path), resolve(mediaPath))), stem);
}

/** Renders and writes every format of the profile; returns the files written. */
export async function deliver(folder: WatchFolder, mediaPath: string, docs: Document[], base = outputBase(folder, mediaPath)): Promise<string[]> {
  const written: string[] = [];
  for (const { format, options } of folder.profile.formats) {
    const doc = pick(docs, format);
    if (!doc) throw new Error('the service returned no document to export');
    const opts: ExportOptions = { ...options, profile: options.profile as ExportOptions['profile'], title: basename(mediaPath) };
    if (format === 'pdf') opts.font = await loadPdfFont();
    const bytes = await renderExport(format, doc, opts);
    const target = `${base}.${FORMAT_FILES[format].extension}`;
    await writeAtomic(target, bytes);
    written.push(target);
  }
  return written;
}

/** Moves a source into done/ or failed/ under its watched folder (when the profile says so). */
export async function moveSource(folder: WatchFolder, mediaPath: string, outcome: 'done' | 'failed'): Promise<string | null> {
  if (folder.profile.afterwards !== 'move' || !existsSync(mediaPath)) return null;
  const target = join(resolve(folder.path), outcome === 'done' ? DONE_DIR : FAILED_DIR, relative(resolve(folder.path), resolve(mediaPath)));
  await mkdir(dirname(target), { recursive: true });
  await rename(mediaPath, target);
  return target;
}
