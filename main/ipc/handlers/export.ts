/**
 * export.*: a cached document rendered to a file format, so exports work offline. The bytes go
 * back to the renderer (browser mode downloads them), or main writes them where the save dialog
 * said (export.toFile), or one format for many sessions into a folder (export.bulk).
 */
import { stat } from 'node:fs/promises';
import { dirname, extname, isAbsolute, join } from 'node:path';
import { CAPTION_FORMATS, type ExportFormat } from '../../../common/api';
import type { DocumentRecord } from '../../../common/ipc';
import { CAPTION_PROFILES, type CaptionProfileId } from '../../../common/transcript/captions';
import type { ExportOptions } from '../../../common/formats';
import { pdfFonts, printedText } from '../../platform/fonts';
import { writeAtomic } from '../../platform/write-atomic';
import { UserFacingError } from '../user-facing-error';
import { requireAccount, type AreaHandlers, type CoreContext } from './context';

type RenderOptions = { speakers?: 'none' | 'prefix' | 'voice'; timestamps?: boolean; profile?: string };

async function render(doc: DocumentRecord, format: ExportFormat, options: RenderOptions) {
  if (!doc.body) throw new UserFacingError('NO_CONTENT', `“${doc.filename}” has no content in the local cache yet; sync first.`);
  const { profile, ...rest } = options;
  if (profile !== undefined && !Object.hasOwn(CAPTION_PROFILES, profile)) {
    throw new UserFacingError('BAD_PROFILE', `Unknown caption profile "${profile}"; use one of ${Object.keys(CAPTION_PROFILES).join(', ')}.`);
  }
  const exportOptions: ExportOptions = { ...rest, ...(profile ? { profile: profile as CaptionProfileId } : {}), ...(format === 'pdf' ? pdfFonts(printedText(doc.body.content, doc.filename)) : {}) };
  // Loaded on first use: the writers (DOCX, PDF) are heavy and most runs never export.
  const { FORMAT_FILES, renderExport } = await import('../../../common/formats');
  const bytes = await renderExport(format, { filename: doc.filename, language: doc.language, timecode_offset: doc.timecode_offset, document: doc.body }, exportOptions);
  const file = FORMAT_FILES[format];
  const stem = doc.filename.replace(/\.[^.]+$/, '') || 'document';
  return { filename: `${stem}.${file.extension}`, mime: file.mediaType, bytes, extension: file.extension };
}

async function isFolder(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isDirectory(), () => false);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

/** A file name from a session's and a document's names, without path separators or control characters. */
const safeName = (s: string) => s.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').replace(/^\.+/, '').trim().slice(0, 150) || 'document';

export function exportHandlers(ctx: CoreContext): AreaHandlers<'export'> {
  const { cache } = ctx;
  const cached = (documentId: string) => {
    // Captions whose transcript moved on are rebuilt (and saved) before they are exported.
    if (cache.row(documentId)?.type === 'caption' && ctx.captions.applyPending(documentId)) ctx.changedLocally([documentId], cache.row(documentId)?.session_id);
    const doc = cache.getDocument(documentId);
    if (!doc) throw new UserFacingError('NOT_FOUND', 'That document is not in the local cache.');
    return doc;
  };
  const progress = (id: string | undefined, done: number, total: number, label: string) => {
    if (id) ctx.emit('export.progress', { id, done, total, label });
  };
  return {
    'export.render': async ({ documentId, format, options }) => {
      const file = await render(cached(documentId), format, options);
      return { filename: file.filename, mime: file.mime, base64: Buffer.from(file.bytes).toString('base64') };
    },
    'export.toFile': async ({ documentId, format, options, path, progressId }) => {
      const doc = cached(documentId);
      // The path comes from the save dialog; still, only a file of this format into an existing folder.
      if (!isAbsolute(path) || !(await isFolder(dirname(path)))) throw new UserFacingError('BAD_PATH', `Cannot save to ${path}: the folder does not exist.`);
      progress(progressId, 0, 2, `Rendering ${format.toUpperCase()}…`);
      const file = await render(doc, format, options);
      const target = extname(path).toLowerCase() === `.${file.extension}` ? path : `${path}.${file.extension}`;
      progress(progressId, 1, 2, 'Writing the file…');
      await writeAtomic(target, file.bytes);
      progress(progressId, 2, 2, 'Saved.');
      return { path: target, bytes: file.bytes.byteLength };
    },
    'export.bulk': async ({ sessionIds, format, folder, options, progressId }) => {
      const accountId = requireAccount(ctx);
      if (!isAbsolute(folder) || !(await isFolder(folder))) throw new UserFacingError('BAD_PATH', `Cannot export into ${folder}: it is not a folder.`);
      const captionFormat = (CAPTION_FORMATS as readonly string[]).includes(format);
      const written: string[] = [];
      const skipped: { sessionId: string; reason: string }[] = [];
      const taken = new Set<string>();
      for (const [i, sessionId] of sessionIds.entries()) {
        const found = cache.getSession(accountId, sessionId);
        const label = found?.session.filename || sessionId;
        progress(progressId, i, sessionIds.length, `Exporting ${label}…`);
        if (!found) {
          skipped.push({ sessionId, reason: 'not in the local cache' });
          continue;
        }
        // Caption formats: the session's captions, else its transcripts (cut into cues); transcript formats: its transcripts.
        const captions = found.documents.filter((d) => d.type === 'caption');
        const transcripts = found.documents.filter((d) => d.type === 'document');
        const docs = captionFormat && captions.length ? captions : transcripts;
        if (!docs.length) {
          skipped.push({ sessionId, reason: 'it has no documents to export' });
          continue;
        }
        for (const d of docs) {
          try {
            const file = await render(cached(d.id), format, options);
            // Named after the session (documents are often all "transcript.json"), with the document's
            // name when the session has several; never the name of a file already there, in any case.
            const session = found.session.filename.replace(/\.[^.]+$/, '') || sessionId;
            const stem = safeName(docs.length > 1 ? `${session} - ${file.filename.replace(/\.[^.]+$/, '')}` : session);
            let name = `${stem}.${file.extension}`;
            for (let n = 2; taken.has(name.toLowerCase()) || (await exists(join(folder, name))); n++) name = `${stem} (${n}).${file.extension}`;
            taken.add(name.toLowerCase());
            await writeAtomic(join(folder, name), file.bytes);
            written.push(join(folder, name));
          } catch (e) {
            skipped.push({ sessionId, reason: (e as Error).message });
          }
        }
      }
      progress(progressId, sessionIds.length, sessionIds.length, 'Done.');
      return { written, skipped };
    },
  };
}
