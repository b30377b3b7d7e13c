/**
 * Files the system hands the app (a double-click on a file the installer associated, "Open with"):
 * main sends them as app.openFiles and the renderer opens New transcription with them picked. The
 * installer's fileAssociations (electron-builder.yml) list exactly these extensions.
 */
import { z } from 'zod';

export const OPENABLE_MEDIA_EXTENSIONS = ['wav', 'mp3', 'm4a', 'flac', 'ogg', 'opus', 'mp4', 'mov', 'mkv', 'webm'] as const;
export const OPENABLE_CAPTION_EXTENSIONS = ['srt', 'vtt'] as const;

/** The most files one open hands over (a selection of hundreds is a folder's work: watch folders). */
export const MAX_OPENED_FILES = 100;

export const OpenedFiles = z.object({
  media: z.array(z.string().min(1).max(4096)).max(MAX_OPENED_FILES),
  /** A caption file: New transcription in its upload mode, the recording left to choose. */
  captions: z.string().min(1).max(4096).nullable(),
});
export type OpenedFiles = z.infer<typeof OpenedFiles>;

export type OpenableKind = 'media' | 'captions';

/** What kind of file the app opens a path as, by its extension; null for any other. */
export function openableKind(path: string): OpenableKind | null {
  const ext = /\.([^./\\]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
  if ((OPENABLE_MEDIA_EXTENSIONS as readonly string[]).includes(ext)) return 'media';
  if ((OPENABLE_CAPTION_EXTENSIONS as readonly string[]).includes(ext)) return 'captions';
  return null;
}
