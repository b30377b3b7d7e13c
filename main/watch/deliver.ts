/**
 * Writes a finished job's documents as the profile's export files, atomically: each is written to
 * a hidden temp file in the target folder and renamed into place, so no reader (nor our own
 * watcher) ever sees half a file.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { CAPTION_FORMATS, type Document, type ExportFormat } from '../../common/api';
import { FORMAT_FILES, renderExport, type ExportOptions } from '../../common/formats';
import type { WatchFolder } from '../../common/ipc';
import { pdfFonts, printedText } from '../platform/fonts';
import { writeAtomic } from '../platform/write-atomic';
import { DONE_DIR, FAILED_DIR, outputDirOf } from './ignore';

/** What delivery needs of a document: the service's Document resource, or the app's cached copy of it. */
export type DeliverableDoc = Pick<Document, 'id' | 'type' | 'filename' | 'language' | 'timecode_offset' | 'document'>;

/** Picks the document a format is best made from: captions from a caption document, text from a transcript. */
function pick<D extends DeliverableDoc>(docs: D[], format: ExportFormat): D | undefined {
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

/**
 * The documents a profile's files are made from, and a fingerprint of what in them shapes the
 * files, so that a refresh rewrites only after a real change (and not for a mere re-read).
 */
export function deliveryVersion(folder: WatchFolder, docs: DeliverableDoc[]): { ids: string[]; version: string } {
  const used = [...new Set(folder.profile.formats.map(({ format }) => pick(docs, format)).filter((d): d is DeliverableDoc => !!d))];
  const hash = createHash('sha256');
  for (const d of used) hash.update(JSON.stringify([d.id, d.timecode_offset, d.document ?? null]));
  return { ids: used.map((d) => d.id), version: hash.digest('hex') };
}

/** Renders and writes every format of the profile; returns the files written. */
export async function deliver(folder: WatchFolder, mediaPath: string, docs: DeliverableDoc[], base = outputBase(folder, mediaPath)): Promise<string[]> {
  const written: string[] = [];
  for (const { format, options } of folder.profile.formats) {
    const doc = pick(docs, format);
    if (!doc) throw new Error('the service returned no document to export');
    const opts: ExportOptions = { ...options, profile: options.profile as ExportOptions['profile'], title: basename(mediaPath) };
    // Bundled DejaVu, plus Noto for any script of this document DejaVu cannot draw.
    if (format === 'pdf') Object.assign(opts, pdfFonts(printedText(doc.document?.content, opts.title)));
    const bytes = await renderExport(format, doc, opts);
    const target = `${base}.${FORMAT_FILES[format].extension}`;
    await writeAtomic(target, bytes);
    written.push(target);
  }
  return written;
}

/**
 * Moves a source into done/ or failed/ under its watched folder (when the profile says so). A
 * source retried from failed/ keeps its place relative to the folder, not to failed/.
 */
export async function moveSource(folder: WatchFolder, mediaPath: string, outcome: 'done' | 'failed'): Promise<string | null> {
  if (folder.profile.afterwards !== 'move' || !existsSync(mediaPath)) return null;
  const root = resolve(folder.path);
  let rel = relative(root, resolve(mediaPath));
  for (const dir of [DONE_DIR, FAILED_DIR]) if (rel.startsWith(dir + sep)) rel = rel.slice(dir.length + 1);
  const target = join(root, outcome === 'done' ? DONE_DIR : FAILED_DIR, rel);
  if (target === resolve(mediaPath)) return null;
  await mkdir(dirname(target), { recursive: true });
  await rename(mediaPath, target);
  return target;
}
