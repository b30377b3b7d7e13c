/**
 * Fonts for PDF export. common/formats never reads files, so main finds the bytes: DejaVu Sans as
 * shipped in assets/fonts (Latin, Greek, Cyrillic, Hebrew, Arabic...), else a system copy; and, for
 * characters DejaVu lacks (CJK, Devanagari, Thai, Ethiopic...), the matching Noto font where
 * fonts-noto-core or fonts-noto-cjk is installed. Without any of them the PDF writer falls back to
 * Helvetica, which only draws Latin.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExportOptions } from '../../common/formats';
import { plainText, type DocumentContent } from '../../common/transcript/model';

export type PdfFonts = Pick<ExportOptions, 'font' | 'boldFont' | 'fallbackFonts'>;

const REGULAR = 'DejaVuSans.ttf';
const BOLD = 'DejaVuSans-Bold.ttf';

/**
 * Where assets/fonts may be: two levels above this module both in the source tree
 * (main/platform/fonts.ts) and in the bundle (dist/main/*.js, also inside the packaged app.asar),
 * and under Electron's resources folder should a package put it there.
 */
export function bundledFontDirs(moduleUrl: string = import.meta.url): string[] {
  const here = dirname(fileURLToPath(moduleUrl));
  const dirs = [join(here, '..', '..', 'assets', 'fonts')];
  const resources = (process as { resourcesPath?: string }).resourcesPath;
  if (resources) dirs.push(join(resources, 'assets', 'fonts'));
  return dirs;
}

/** Where distributions and users put DejaVu (Debian, Fedora, Arch, user fonts, macOS, Windows). */
const SYSTEM_DEJAVU_DIRS = [
  '/usr/share/fonts/truetype/dejavu',
  '/usr/share/fonts/dejavu-sans-fonts',
  '/usr/share/fonts/dejavu',
  '/usr/share/fonts/TTF',
  join(homedir(), '.local', 'share', 'fonts'),
  '/Library/Fonts',
  join(process.env.WINDIR ?? 'C:\\Windows', 'Fonts'),
];

/** Where Noto lives (Debian fonts-noto-core and fonts-noto-cjk, Fedora google-noto-*). */
const NOTO_DIRS = ['/usr/share/fonts/truetype/noto', '/usr/share/fonts/opentype/noto', '/usr/share/fonts/noto', '/usr/share/fonts/noto-cjk', '/usr/share/fonts/google-noto', '/usr/share/fonts/google-noto-cjk'];

/** Noto faces for the scripts that share one CJK font, best first (Debian ships the .ttc). */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u;
const CJK_FILES = ['NotoSansCJK-Regular.ttc', 'NotoSansCJKsc-Regular.otf', 'NotoSansSC-Regular.otf', 'NotoSansJP-Regular.otf', 'NotoSansKR-Regular.otf'];

const bytesCache = new Map<string, Uint8Array>();
function read(path: string): Uint8Array {
  let b = bytesCache.get(path);
  if (!b) bytesCache.set(path, (b = new Uint8Array(readFileSync(path))));
  return b;
}

function find(file: string, dirs: string[]): string | undefined {
  return dirs.map((d) => join(d, file)).find((p) => existsSync(p));
}

/** The file DejaVu Sans (or its bold face) is read from: the bundled copy first. */
export function dejaVuPath(bold = false, dirs: string[] = [...bundledFontDirs(), ...SYSTEM_DEJAVU_DIRS]): string | undefined {
  return find(bold ? BOLD : REGULAR, dirs);
}

/** The code points a font draws. fontkit is required here, not imported: the app's start stays light. */
const charsCache = new Map<string, Set<number>>();
function coveredBy(path: string): Set<number> {
  let chars = charsCache.get(path);
  if (!chars) {
    const fontkit = createRequire(import.meta.url)('@pdf-lib/fontkit') as { create(b: Buffer): { characterSet: number[] } };
    const bytes = read(path);
    charsCache.set(path, (chars = new Set(fontkit.create(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).characterSet)));
  }
  return chars;
}

/**
 * Noto files by the script regex they serve, from the files installed: NotoSans<Script>-Regular
 * names its script (CamelCase for Unicode's Snake_Case), so every installed script font is found
 * without a table to keep up to date.
 */
let notoByScript: { script: RegExp; path: string }[] | null = null;
function notoScriptFonts(): { script: RegExp; path: string }[] {
  if (notoByScript) return notoByScript;
  notoByScript = [];
  for (const dir of NOTO_DIRS.filter((d) => existsSync(d))) {
    for (const file of readdirSync(dir)) {
      const m = /^NotoSans([A-Za-z]+)-Regular\.(?:ttf|otf)$/.exec(file);
      if (!m) continue;
      for (const name of [m[1], m[1].replace(/([a-z])([A-Z])/g, '$1_$2')]) {
        try {
          notoByScript.push({ script: new RegExp(`\\p{Script=${name}}`, 'u'), path: join(dir, file) });
          break;
        } catch {
          // Not a Unicode script name (e.g. NotoSansSymbols): not a script font.
        }
      }
    }
  }
  return notoByScript;
}

/** Noto fonts for the characters of `text` that DejaVu cannot draw, one file per script. */
export function fallbackFontPaths(text: string, regularPath: string): string[] {
  if (!/[^\x00-\x7f]/.test(text)) return []; // ASCII only: no need to read DejaVu's character map
  const covered = coveredBy(regularPath);
  const paths = new Set<string>();
  const unplaced: number[] = [];
  for (const ch of new Set(text)) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80 || covered.has(cp) || /\s/u.test(ch)) continue;
    const path = CJK.test(ch) ? CJK_FILES.map((f) => find(f, NOTO_DIRS)).find(Boolean) : notoScriptFonts().find((s) => s.script.test(ch))?.path;
    if (path) paths.add(path);
    else unplaced.push(cp);
  }
  // Symbols and rare letters belong to no script font: plain Noto Sans has many of them.
  const general = unplaced.length ? find('NotoSans-Regular.ttf', NOTO_DIRS) : undefined;
  if (general && unplaced.some((cp) => coveredBy(general).has(cp))) paths.add(general);
  return [...paths];
}

/** Everything a PDF of this content prints: its text, speaker names, summary and title. */
export function printedText(content: DocumentContent | undefined, title = ''): string {
  if (!content) return title;
  const summary = content.kind === 'transcript' ? (content.summary ?? '') : '';
  return [title, summary, ...content.speakers.map((s) => s.name), plainText(content)].join('\n');
}

/** Font options for a PDF of `text` (what it prints, for choosing fallbacks). */
export function pdfFonts(text = ''): PdfFonts {
  const regular = dejaVuPath();
  if (!regular) return {};
  const bold = dejaVuPath(true);
  const fallbacks = fallbackFontPaths(text, regular);
  return {
    font: read(regular),
    ...(bold ? { boldFont: read(bold) } : {}),
    ...(fallbacks.length ? { fallbackFonts: fallbacks.map(read) } : {}),
  };
}
