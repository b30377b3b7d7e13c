/** The text an align session is made from: a same-named .txt or caption file beside the media. */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { parseCaptions } from '../../common/formats';
import { plainText } from '../../common/transcript/model';

/** Files beside the media whose text drives an align session, most specific first. */
const ALIGN_SOURCES = ['txt', 'srt', 'vtt', 'sbv', 'ttml'] as const;

export function alignText(mediaPath: string): string | null {
  const stem = join(dirname(mediaPath), basename(mediaPath, extname(mediaPath)));
  for (const ext of ALIGN_SOURCES) {
    const file = `${stem}.${ext}`;
    if (!existsSync(file)) continue;
    const bytes = readFileSync(file);
    const text = ext === 'txt' ? bytes.toString('utf8') : plainText(parseCaptions(ext, new Uint8Array(bytes)));
    if (text.trim()) return text;
  }
  return null;
}
