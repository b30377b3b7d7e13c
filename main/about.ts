/**
 * Help and About's facts: the app's name and version and the licences of the packages it ships,
 * read from the package.json files installed with it (the app's own, then each dependency's), so
 * they cannot disagree with what runs. Read once; a package that cannot be read is listed as such.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { AboutInfo } from '../common/ipc/shell';

const Manifest = z.object({
  name: z.string().max(214),
  productName: z.string().max(200).optional(),
  version: z.string().max(100),
  license: z.string().max(200).optional(),
  dependencies: z.record(z.string(), z.string()).optional(),
});

/** The folder holding the app's package.json: dist/main/ sits two levels below it, in the packaged app too. */
function appRoot(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    dir = dirname(dir);
  }
  return null;
}

function manifest(path: string): z.infer<typeof Manifest> | null {
  try {
    const parsed = Manifest.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

let known: Omit<AboutInfo, 'dataDir'> | null = null;

export function aboutApp(dataDir: string): AboutInfo {
  if (!known) {
    const root = appRoot();
    const own = root ? manifest(join(root, 'package.json')) : null;
    const licences = Object.keys(own?.dependencies ?? {})
      .slice(0, 500)
      .map((name) => {
        const dep = root ? manifest(join(root, 'node_modules', name, 'package.json')) : null;
        return { name, version: dep?.version ?? '?', licence: dep?.license ?? 'see the package' };
      });
    const docs = root && existsSync(join(root, 'docs')) ? join(root, 'docs') : null;
    known = { name: own?.productName ?? own?.name ?? 'S2T Desktop', version: own?.version ?? 'unknown', docsDir: docs, runtime: `Node ${process.versions.node}${process.versions.electron ? `, Electron ${process.versions.electron}` : ''}`, licences };
  }
  return { ...known, dataDir };
}
