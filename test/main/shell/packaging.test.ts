/**
 * What the installers carry, read as a packager would (packaging itself downloads Electron, so it
 * cannot run here): electron-builder.yml is valid against the schema electron-builder ships, every
 * native module the app's production dependencies load is unpacked from the asar, and every
 * program the code resolves from the app's own files travels with each platform's build.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import Ajv from 'ajv';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BUNDLED_TOOLS } from '../../../node/tools';
import { OPENABLE_CAPTION_EXTENSIONS, OPENABLE_MEDIA_EXTENSIONS, openableKind } from '../../../common/ipc/opened-files';
import { COMPANION_ACCEPT, MEDIA_ACCEPT } from '../../../renderer/src/imports/accept';
import { ROOT } from '../../helpers/service';

const cfg = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8'));

/** Every .node file under the packages npm installs for production (what the app's asar holds). */
function productionNativeFiles(): string[] {
  const dirs = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\n')
    .filter((d) => d.includes(`${sep}node_modules${sep}`));
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const st = statSync(path, { throwIfNoEntry: false });
      if (st?.isDirectory() && name !== 'node_modules') walk(path);
      else if (st?.isFile() && name.endsWith('.node')) found.add(relative(ROOT, path).split(sep).join('/'));
    }
  };
  for (const d of new Set(dirs)) walk(d);
  return [...found].sort();
}

describe('the installers carry what the app runs', () => {
  it('electron-builder.yml is valid against the schema electron-builder ships', () => {
    const schema = JSON.parse(readFileSync(join(ROOT, 'node_modules/app-builder-lib/scheme.json'), 'utf8'));
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile(schema);
    const ok = validate(cfg);
    expect(ajv.errorsText(validate.errors), 'schema errors').toBe('No errors');
    expect(ok).toBe(true);
  });

  it('unpacks every native module of the production dependencies from the asar', () => {
    const unpacked = picomatch(cfg.asarUnpack as string[], { dot: true });
    const natives = productionNativeFiles();
    expect(natives.some((f) => f.includes('better-sqlite3'))).toBe(true);
    expect(natives.filter((f) => !unpacked(f))).toEqual([]);
  });

  it('ships the bundled programs for every platform, outside the asar, from a checked source', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'packaging/tools.json'), 'utf8'));
    for (const [section, platform] of [['linux', 'linux'], ['win', 'win32'], ['mac', 'darwin']] as const) {
      expect(cfg[section].extraResources, section).toContainEqual({ from: `vendor/tools/${platform}-\${arch}`, to: 'tools' });
      const targets = Object.keys(manifest.targets).filter((t) => t.startsWith(`${platform}-`));
      expect(targets.length, `${platform} builds in packaging/tools.json`).toBeGreaterThan(0);
      for (const t of targets) {
        const entry = manifest.targets[t];
        expect(entry.url).toMatch(/^https:\/\//);
        expect(entry.checksums).toMatch(/^https:\/\//);
        for (const tool of BUNDLED_TOOLS) expect(Object.keys(entry.members), t).toContain(platform === 'win32' ? `${tool}.exe` : tool);
      }
    }
  });

  it('associates exactly the files New transcription opens: recordings it accepts, captions its upload mode takes', () => {
    const assoc = cfg.fileAssociations as { ext: string[]; mimeType: string; name: string }[];
    const exts = assoc.flatMap((a) => a.ext);
    expect([...exts].sort()).toEqual([...OPENABLE_MEDIA_EXTENSIONS, ...OPENABLE_CAPTION_EXTENSIONS].sort());
    const accepted = MEDIA_ACCEPT.split(',').map((t) => t.replace('*', ''));
    for (const a of assoc) {
      const kinds = new Set(a.ext.map(openableKind));
      expect(kinds.size, a.name).toBe(1);
      if (kinds.has('media')) for (const mime of a.mimeType.split(';')) expect(accepted.some((p) => mime.startsWith(p)), `${mime} in ${MEDIA_ACCEPT}`).toBe(true);
    }
    const upload = COMPANION_ACCEPT.upload.split(',');
    for (const ext of OPENABLE_CAPTION_EXTENSIONS) expect(upload).toContain(`.${ext}`);
  });

  it('declares what live transcription and the deb need', () => {
    expect(cfg.mac.extendInfo.NSMicrophoneUsageDescription).toMatch(/microphone/);
    const entitlements = readFileSync(join(ROOT, cfg.mac.entitlements), 'utf8');
    expect(entitlements).toContain('com.apple.security.device.audio-input');
    expect(cfg.deb.recommends).toEqual(expect.arrayContaining(['pocketsphinx', 'pocketsphinx-en-us']));
  });
});
