/**
 * Browser mode's updater, only when S2T_UPDATE_FEED names a feed: to try the update notices
 * against a local server (the tests). It checks and downloads as the installed app does; browser
 * mode has nothing to install, so its install does nothing.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { appAdapter } from './app-adapter';
import { nodeUpdater } from './node-updater';
import { createUpdates, type Updates } from './updates';

const PackageVersion = z.object({ version: z.string().min(1).max(64) });

export function browserModeUpdates(feedUrl: string, dataDir: string, packageJson: string): Updates {
  const dir = join(dataDir, 'updates');
  mkdirSync(dir, { recursive: true });
  const configPath = join(dir, 'app-update.yml');
  writeFileSync(configPath, `provider: generic\nurl: ${JSON.stringify(feedUrl)}\nupdaterCacheDirName: s2t-desktop-updater\n`);
  const { version } = PackageVersion.parse(JSON.parse(readFileSync(packageJson, 'utf8')));
  const updates = createUpdates(nodeUpdater(feedUrl, appAdapter({ version, name: 'S2T Desktop', isPackaged: true, appUpdateConfigPath: configPath, userDataPath: dir, cachePath: join(dir, 'cache') })));
  return { ...updates, installAndRestart: () => {} };
}
