/**
 * What imports.add checks before anything uploads, so a refusal comes at once with its reason:
 * the language against the service's list, a text for align and a document for upload (read now,
 * so the item carries it across restarts), and each file by its content (media or not).
 */
import { readdir, readFile, realpath, rm, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { parseCaptions } from '../../common/formats';
import type { CompanionFile, ImportSource, ModelChoice, TranscriptionOptions } from '../../common/ipc';
import { plainText } from '../../common/transcript/model';
import { expectedBesideMedia, sniffMedia } from '../watch/media';
import { languageProblem } from './models';
import { stagedPath } from './staging';

/** The service takes at most this much text for align or upload (TranscribeBody.transcript_text). */
const MAX_TEXT_BYTES = 5_000_000;
const CAPTIONS = ['srt', 'vtt', 'sbv', 'ttml'] as const;

export class Refused extends Error {}

/** A file ready to queue, or why it cannot be. */
export type Checked = { ok: true; path: string; size: number; mediaType: string; name: string; staged: boolean; source: ImportSource } | { ok: false; name: string; reason: string; source: ImportSource };

/** The options' problems (language, a missing text or document), as one Refused; the text the job needs otherwise. */
export async function checkOptions(options: TranscriptionOptions, sources: ImportSource[], models: ModelChoice[] | null, dataDir: string): Promise<string | null> {
  const language = languageProblem(options.language, models);
  if (language) throw new Refused(language);
  const engine = engineProblem(options, sources, models);
  if (engine) throw new Refused(engine);
  if (options.mode === 'decode') return null;
  if (sources.length > 1) throw new Refused(`${options.mode} pairs one media file with one ${options.mode === 'align' ? 'text' : 'document'}: add the files one at a time`);
  if (sources.some((s) => s.kind === 'url')) throw new Refused(`a URL can only be transcribed (decode), not used to ${options.mode}`);
  if (!options.companion) throw new Refused(options.mode === 'align' ? 'align needs the text to align: choose a .txt or caption file' : 'upload needs the caption or transcript file to upload');
  return companionText(options.mode, options.companion, dataDir);
}

/** A chosen engine must be one the service runs for the language; a URL the service fetches itself always gets its choice. */
function engineProblem(options: TranscriptionOptions, sources: ImportSource[], models: ModelChoice[] | null): string | null {
  if (options.speechEngine === null || options.mode === 'upload') return null;
  if (sources.some((s) => s.kind === 'url')) return 'the engine can be chosen for files, not for a media URL (the service picks the engine for a URL it downloads): choose Automatic';
  const engines = models?.find((m) => m.key === options.language)?.engines;
  // Offline, with a list read before engines were listed: the service checks it again.
  if (!engines) return null;
  if (!engines.includes(options.speechEngine)) return `${options.speechEngine} cannot run ${options.language} on the service now (it may have been deleted): choose another engine, or Automatic`;
  return null;
}

async function companionText(mode: 'align' | 'upload', file: CompanionFile, dataDir: string): Promise<string> {
  const path = file.kind === 'path' ? file.path : stagedPath(dataDir, file.stagedId);
  const name = file.kind === 'path' ? basename(file.path) : file.name;
  try {
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) throw new Refused(`cannot read ${name}: the file is not there`);
    if (info.size > MAX_TEXT_BYTES) throw new Refused(`${name} is larger than ${MAX_TEXT_BYTES / 1_000_000} MB`);
    const bytes = await readFile(path);
    const ext = extname(name).slice(1).toLowerCase() as (typeof CAPTIONS)[number];
    // align wants plain words (a caption file gives its text); upload sends the document as it is.
    let text: string;
    try {
      text = mode === 'align' && CAPTIONS.includes(ext) ? plainText(parseCaptions(ext, new Uint8Array(bytes))) : bytes.toString('utf8');
    } catch (err) {
      throw new Refused(`${name} could not be read as ${ext.toUpperCase()}: ${(err as Error).message}`);
    }
    if (!text.trim()) throw new Refused(`${name} holds no text`);
    return text;
  } finally {
    if (file.kind === 'staged') await rm(path, { force: true }).catch(() => {});
  }
}

/** A dropped or picked folder stands for the files in it (and its subfolders), up to this many in one add. */
const MAX_FILES = 500;

/** A source to check, and whether it was found inside a given folder (rather than given itself). */
export interface Found {
  source: ImportSource;
  inFolder: boolean;
}

/**
 * Folders become the files in them (dotfiles and texts expected beside media left out, in name
 * order); files and URLs stay as they are. A folder with nothing to transcribe is refused.
 */
export async function expandFolders(sources: ImportSource[]): Promise<Found[]> {
  const out: Found[] = [];
  for (const s of sources) {
    const info = s.kind === 'path' ? await stat(s.path).catch(() => null) : null;
    if (s.kind !== 'path' || !info?.isDirectory()) {
      out.push({ source: s, inFolder: false });
      continue;
    }
    const entries = await readdir(s.path, { recursive: true, withFileTypes: true });
    const files = entries
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name))
      .filter((p) => !expectedBesideMedia(p) && !p.slice(s.path.length).split(/[\\/]/).some((part) => part.startsWith('.')))
      .sort();
    if (!files.length) throw new Refused(`the folder ${basename(s.path)} holds nothing to transcribe`);
    out.push(...files.map((path) => ({ source: { kind: 'path' as const, path }, inFolder: true })));
  }
  if (out.length > MAX_FILES) throw new Refused(`that is ${out.length} files; add at most ${MAX_FILES} at once`);
  return out;
}

/**
 * The refusal for a whole add, or null when it may go: a file given itself (chosen or dropped) that
 * cannot be read refuses the add, so the dialog says why and nothing uploads, however it was
 * given; one found inside a given folder is only listed as failed beside the rest.
 */
export function refusalOf(checked: { check: Checked; inFolder: boolean }[]): string | null {
  const bad = checked.filter((c) => !c.check.ok && (!c.inFolder || checked.every((o) => !o.check.ok)));
  if (!bad.length) return null;
  const reasons = bad.map(({ check: c }) => `${c.name}: ${c.ok ? '' : c.reason}`).join('; ');
  return checked.some((c) => c.check.ok) ? `${reasons} (remove ${bad.length === 1 ? 'it' : 'them'} to transcribe the rest)` : reasons;
}

/** One source: a readable media file (by its content, not its name), or the reason it is not. */
export async function checkSource(source: ImportSource, dataDir: string): Promise<Checked> {
  if (source.kind === 'url') {
    return { ok: true, path: '', size: 0, mediaType: '', name: source.url, staged: false, source };
  }
  const staged = source.kind === 'staged';
  // A link the person chose is read as the file it names (the watch queue reads no links).
  const path = staged ? stagedPath(dataDir, source.stagedId) : await realpath(source.path).catch(() => source.path);
  const name = staged ? source.name : basename(source.path);
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return { ok: false, name, reason: staged ? 'the file did not reach S2T Desktop; add it again' : 'the file is not there (or is a folder)', source };
  const mediaType = await sniffMedia(path);
  if (!mediaType) return { ok: false, name, reason: 'not media: the file holds no audio or video S2T can read', source };
  return { ok: true, path, size: info.size, mediaType, name, staged, source };
}
