/**
 * Where the external programs the app and the local service run come from. The installed app
 * carries its own ffmpeg and ffprobe (electron-builder.yml's extraResources: resources/tools), and
 * main names that folder in S2T_TOOLS_DIR before it starts the service, so both find the same
 * copies; a program not there is looked up on the PATH, as on a developer's machine.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The programs an installed app carries with it (scripts/fetch-tools.mjs puts them in place). */
export const BUNDLED_TOOLS = ['ffmpeg', 'ffprobe'] as const;

const found = new Map<string, string>();

/** The path to run for a program: the bundled copy when there is one, else its name (the PATH). */
export function toolPath(name: string, dir: string | undefined = process.env.S2T_TOOLS_DIR): string {
  if (!dir) return name;
  const key = `${dir}\0${name}`;
  let path = found.get(key);
  if (path === undefined) {
    const file = join(dir, process.platform === 'win32' ? `${name}.exe` : name);
    path = existsSync(file) ? file : name;
    found.set(key, path);
  }
  return path;
}

/**
 * Whether a program can be run: the bundled copy, or an executable file of that name on the PATH.
 * Looked up on each call (a handful of stats), so a program installed while the app runs is seen.
 */
export function programInstalled(name: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const exe = process.platform === 'win32' ? `${name}.exe` : name;
  const dirs = [env.S2T_TOOLS_DIR, ...(env.PATH ?? '').split(delimiter)].filter((d): d is string => !!d);
  return dirs.some((d) => {
    const file = join(d, exe);
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  });
}
