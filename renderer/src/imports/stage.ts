/**
 * Hands a picked file to main as an ImportSource: a path as is; a File through the bridge's
 * stageFile (browser mode streams it to main in pieces, Electron answers its path), so the
 * renderer never holds a whole recording in memory. Each submit stages again: main deletes a
 * staged file once it has checked (and refused) or queued it.
 */
import { ImportSource, type CompanionFile } from '../../../common/ipc';
import { getBridge } from '../lib/bridge';
import type { Picked } from './pickedFiles';

export async function stagePicked(p: Picked, onProgress?: (sent: number, total: number) => void): Promise<CompanionFile> {
  if (p.kind === 'path') return { kind: 'path', path: p.path };
  const bridge = getBridge();
  if (!bridge.stageFile) throw new Error('This version of S2T Desktop cannot take files from the page yet.');
  const source = ImportSource.parse(await bridge.stageFile(p.file, onProgress));
  if (source.kind === 'url') throw new Error(`${p.name} came back as a URL, not a file.`);
  return source;
}
