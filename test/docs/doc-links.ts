/**
 * Finds the broken relative links in Markdown pages: a file or folder that does not exist, or an
 * #anchor no heading of the target page makes (GitHub's rule: lower case, punctuation dropped,
 * spaces to hyphens, repeats numbered). Images count as links, whether Markdown's `![](…)` or
 * HTML's `src` and `srcset` (the guide's light and dark pictures). Links to other sites and text
 * inside code are not checked.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The Markdown pages under `dir`, recursively. */
export function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return markdownFiles(path);
    return e.name.endsWith('.md') ? [path] : [];
  });
}

/** The page's text with fenced code blocks and inline code blanked, so their contents are not read as links. */
function withoutCode(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchors GitHub makes for a page's headings. */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of withoutCode(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = m[1]
      .replace(/<[^>]+>/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  // Headings written as code keep their text: read them again with the code left in.
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)) anchors.add(m[1].toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-'));
  return anchors;
}

/** Every link target a page names: Markdown links and images, and HTML src, srcset and href. */
export function linksOf(text: string): string[] {
  const body = withoutCode(text);
  const found: string[] = [];
  for (const m of body.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push(m[1]);
  for (const m of body.matchAll(/\b(?:src|href)="([^"]+)"/g)) found.push(m[1]);
  for (const m of body.matchAll(/\bsrcset="([^"]+)"/g)) found.push(...m[1].split(',').map((s) => s.trim().split(/\s+/)[0]));
  return found;
}

const external = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** One line per broken link in `pages`, naming the page (relative to `root`) and the target. */
export function brokenLinks(root: string, pages: string[]): string[] {
  const problems: string[] = [];
  for (const page of pages) {
    const text = readFileSync(page, 'utf8');
    for (const target of linksOf(text)) {
      if (external(target)) continue;
      const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
      const file = pathPart === '' ? page : resolve(dirname(page), decodeURI(pathPart));
      const where = `${relative(root, page)}: ${target}`;
      if (!existsSync(file)) {
        problems.push(`${where} (no such file)`);
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      if (statSync(file).isDirectory() || !file.endsWith('.md')) {
        problems.push(`${where} (an anchor into something that is not a page)`);
        continue;
      }
      if (!anchorsOf(readFileSync(file, 'utf8')).has(decodeURIComponent(anchor).toLowerCase())) problems.push(`${where} (no heading makes that anchor)`);
    }
  }
  return problems;
}
