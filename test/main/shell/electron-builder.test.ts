/** Packaging cannot run here (it downloads Electron), so the config is checked for what it promises. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../../helpers/service';

describe('electron-builder.yml', () => {
  const cfg = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8'));
  it('names the app and every platform target', () => {
    expect(cfg.appId).toMatch(/^[a-z0-9.-]+$/);
    expect(cfg.productName).toBe('S2T Desktop');
    expect(cfg.linux.target).toEqual(expect.arrayContaining(['AppImage', 'deb']));
    expect(cfg.win.target).toContain('nsis');
    expect(cfg.mac.target).toContain('dmg');
  });
  it('points at files that exist', () => {
    for (const icon of [cfg.icon, cfg.linux.icon, cfg.win.icon, cfg.mac.icon]) expect(existsSync(join(ROOT, icon)), icon).toBe(true);
    const png = readFileSync(join(ROOT, cfg.icon));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(512); // width: builders want 512 px or more
    expect(existsSync(join(ROOT, cfg.directories.buildResources))).toBe(true);
    const main = cfg.extraMetadata.main as string;
    expect(main).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).main);
    expect(existsSync(join(ROOT, main.replace(/\.js$/, '.ts').replace(/^dist\//, '')))).toBe(true);
  });
});
