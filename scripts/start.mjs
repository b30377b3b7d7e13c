// `npm start`: opens the Electron app; where Electron cannot start (no binary, no display), says
// so in one line and serves the same app in browser mode on 127.0.0.1 instead.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The binary's path as the electron package records it, read without require('electron'): that
// downloads a missing binary from the internet and, offline, fails with only "fetch failed".
function electronBinary() {
  let pkgDir;
  try {
    pkgDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { error: 'the electron package is not installed; run npm install' };
  }
  const pathFile = join(pkgDir, 'path.txt');
  const binary = existsSync(pathFile) ? join(pkgDir, 'dist', readFileSync(pathFile, 'utf8').trim()) : null;
  if (!binary || !existsSync(binary)) return { error: `the Electron binary is missing from ${join(pkgDir, 'dist')}; "npx install-electron" downloads it` };
  return { path: binary };
}

function browserMode(reason) {
  console.log(`Electron cannot start here (${reason}); serving browser mode instead.`);
  // The IPC channel is how the app learns that this launcher died (even by SIGKILL): it closes.
  const child = spawn(process.execPath, ['dist/main/headless.js', ...process.argv.slice(2)], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code) => process.exit(code ?? 0));
}

const found = electronBinary();
if (found.error) browserMode(found.error);
else if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) browserMode('no display');
else startElectron(found.path);

function startElectron(binary) {
  const started = Date.now();
  const child = spawn(binary, ['.'], { stdio: 'inherit' });
  child.on('exit', (code) => {
    if (code && Date.now() - started < 10_000) browserMode(`Electron exited with code ${code}`);
    else process.exit(code ?? 0);
  });
}
