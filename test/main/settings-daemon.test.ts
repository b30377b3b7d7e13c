/**
 * The watch daemon reads the app's settings (conf, the same settings.json, migrated): a cloud
 * account chosen in the app is its service when no --service is given.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS_VERSION } from '../../main/settings';
import { ROOT, tempDir } from '../helpers/service';

describe('watch daemon settings', () => {
  it('takes the service from the settings file the app wrote (the old shape, migrated)', async () => {
    const dataDir = tempDir('s2t-daemon-settings-');
    const folder = join(dataDir, 'in');
    mkdirSync(folder);
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ serviceUrl: 'https://stt.example.com' }));
    const env = { ...process.env };
    for (const k of ['S2T_TOKEN', 'S2T_USERNAME', 'S2T_PASSWORD', 'S2T_SERVICE_URL']) delete env[k];
    const child = spawn(process.execPath, [join(ROOT, 'dist/main/headless.js'), 'watch', folder, '--data', dataDir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((res) => child.once('exit', res));
    // A cloud service needs credentials: the daemon asks for them instead of starting its own service.
    expect(code).toBe(1);
    expect(stderr).toMatch(/needs credentials/);
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toMatchObject({ schemaVersion: SETTINGS_VERSION, serviceUrl: 'https://stt.example.com' });
  });
});
