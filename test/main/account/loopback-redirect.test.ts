/**
 * The RFC 8252 loopback listener over real HTTP: 127.0.0.1 on a port of its own, a redirect
 * without our state refused (and the listener keeps waiting), the one good redirect answered with
 * a page and the port closed after it, and a deadline that closes the port too.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ROOT } from '../../helpers/service';
import { CALLBACK_PATH, SsoError, startLoopbackRedirect } from '../../../main/auth/loopback-redirect';

/** Whether anything still listens at the URL's port. */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return true;
  } catch {
    return false;
  }
}

describe('loopback redirect', () => {
  it('refuses a redirect whose state is not ours, takes the right one once, then closes', async () => {
    const flow = await startLoopbackRedirect({ timeoutMs: 60_000 });
    const uri = new URL(flow.redirectUri);
    expect(uri.hostname).toBe('127.0.0.1');
    expect(uri.pathname).toBe(CALLBACK_PATH);
    expect(Number(uri.port)).toBeGreaterThan(0);
    expect(flow.state.length).toBeGreaterThanOrEqual(32);

    const forged = await fetch(`${flow.redirectUri}?access_token=stolen&state=${'x'.repeat(flow.state.length)}`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('not started by S2T Desktop');
    const noState = await fetch(`${flow.redirectUri}?access_token=stolen`);
    expect(noState.status).toBe(400);

    const good = await fetch(`${flow.redirectUri}?${new URLSearchParams({ access_token: 'the-token', state: flow.state })}`);
    expect(good.status).toBe(200);
    expect(await good.text()).toContain('You can close this tab');
    expect(await flow.token).toBe('the-token');
    await flow.closed;
    expect(await answers(flow.redirectUri)).toBe(false);
  });

  it('gives up at its deadline and closes the port', async () => {
    const flow = await startLoopbackRedirect({ timeoutMs: 300 });
    expect(await answers(`${flow.redirectUri}?state=wrong`)).toBe(true);
    await expect(flow.token).rejects.toThrow(SsoError);
    await expect(flow.token).rejects.toThrow('took too long');
    await flow.closed;
    expect(await answers(flow.redirectUri)).toBe(false);
  });

  it('passes on a refusal from the identity provider, and closes', async () => {
    const flow = await startLoopbackRedirect({ timeoutMs: 60_000 });
    const res = await fetch(`${flow.redirectUri}?${new URLSearchParams({ error: 'access_denied', state: flow.state })}`);
    expect(res.status).toBe(400);
    await expect(flow.token).rejects.toThrow('access_denied');
    await flow.closed;
    expect(await answers(flow.redirectUri)).toBe(false);
  });

  it('a sign-in left waiting does not keep the process alive', async () => {
    // A child that starts a listener with a ten-minute deadline and then has nothing else to do.
    const script = `import { startLoopbackRedirect } from ${JSON.stringify(join(ROOT, 'main/auth/loopback-redirect.ts'))};
const flow = await startLoopbackRedirect({ timeoutMs: 600000 });
console.log(flow.redirectUri);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    onTestFinished(() => void child.kill());
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(out).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/s2t\/sso\/callback/);
  }, 60_000);
});
