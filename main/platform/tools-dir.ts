/**
 * The folder of programs (ffmpeg, ffprobe) the app carries: resources/tools in an installed app,
 * vendor/tools/<platform>-<arch> in a source tree where `npm run tools:fetch` put them. It is
 * named in S2T_TOOLS_DIR (unless already set) so that main and the embedded service, which
 * inherits the environment, both run the same copies (node/tools.ts).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function useBundledTools(moduleUrl: string = import.meta.url): string | undefined {
  if (process.env.S2T_TOOLS_DIR) return process.env.S2T_TOOLS_DIR;
  const resources = (process as { resourcesPath?: string }).resourcesPath;
  // Two levels above this module both in the source tree (main/platform) and the bundle (dist/main).
  const root = join(dirname(fileURLToPath(moduleUrl)), '..', '..');
  const candidates = [resources && join(resources, 'tools'), join(root, 'vendor', 'tools', `${process.platform}-${process.arch}`)];
  const dir = candidates.find((d): d is string => !!d && existsSync(d));
  if (dir) process.env.S2T_TOOLS_DIR = dir;
  return dir;
}
