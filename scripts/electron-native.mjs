// Electron embeds a Node with another ABI than the one npm built better-sqlite3 for. For
// `npm start` we build a second copy for Electron once, under .electron-native/, and hand its path
// to main and the embedded service in S2T_SQLITE_BINDING; node_modules stays built for Node, so
// the tests and browser mode keep working. Packaged apps are rebuilt by electron-builder instead.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join, sep } from 'node:path';

export function electronSqliteBinding(root = process.cwd()) {
  const version = JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')).version;
  const dir = join(root, '.electron-native', `better-sqlite3-electron-${version}-${process.platform}-${process.arch}`);
  const binding = join(dir, 'build', 'Release', 'better_sqlite3.node');
  if (existsSync(binding)) return { path: binding };
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(root, 'node_modules/better-sqlite3'), dir, { recursive: true, filter: (src) => !src.includes(`${sep}build${sep}`) });
  console.log(`Building better-sqlite3 for Electron ${version} (once) ...`);
  // npm passes its own nodedir to scripts; here it would point node-gyp at Node's headers.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_(nodedir|target|runtime|disturl)$/i.test(k)));
  const gyp = join(root, 'node_modules/node-gyp/bin/node-gyp.js');
  const r = spawnSync(process.execPath, [gyp, 'rebuild', '--release', `--target=${version}`, `--arch=${process.arch}`, '--dist-url=https://electronjs.org/headers'], { cwd: dir, env, stdio: 'inherit' });
  if (r.status !== 0 || !existsSync(binding)) return { error: `better-sqlite3 could not be built for Electron ${version}` };
  return { path: binding };
}
