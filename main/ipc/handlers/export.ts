/** export.*: a cached document rendered to a file format, so exports work offline. */
import { CAPTION_PROFILES, type CaptionProfileId } from '../../../common/transcript/captions';
import type { ExportOptions } from '../../../common/formats';
import { pdfFonts, printedText } from '../../platform/fonts';
import { UserFacingError } from '../user-facing-error';
import type { AreaHandlers, CoreContext } from './context';

export function exportHandlers({ cache }: CoreContext): AreaHandlers<'export'> {
  return {
    'export.render': async ({ documentId, format, options }) => {
      const doc = cache.getDocument(documentId);
      if (!doc) throw new UserFacingError('NOT_FOUND', 'That document is not in the local cache.');
      if (!doc.body) throw new UserFacingError('NO_CONTENT', 'That document has no content in the local cache yet; sync first.');
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
      return { filename: `${stem}.${file.extension}`, mime: file.mediaType, base64: Buffer.from(bytes).toString('base64') };
    },
  };
}
