// `npm start`: opens the Electron app; where Electron cannot start (no binary, no display), says
// so in one line and serves the same app in browser mode on 127.0.0.1 instead.
import { spawn, spawnSync } from 'node:child_process';

function electronBinary() {
  const r = spawnSync(process.execPath, ['-e', "process.stdout.write(require('electron'))"], { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0 || !r.stdout) {
    const reason = (r.stderr || '').split('\n').find((l) => /Error|failed/i.test(l)) || 'the Electron binary is not installed';
    return { error: reason.trim() };
  }
  return { path: r.stdout };
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
