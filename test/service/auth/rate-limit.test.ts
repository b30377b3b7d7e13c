import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, DEMO, startService, type RunningService } from '../../helpers/service';
import { errorOf } from '../answers';
import { call, tokenFor } from './client';

let svc: RunningService;

beforeAll(async () => {
  svc = await startService({ args: ['--rate-limit', '5', '--rate-window-seconds', '3'] });
});
afterAll(async () => {
  await svc?.stop();
  if (svc) cleanup(svc.dataDir);
});

describe('rate limits', () => {
  it('counts per credential, sends the X-RateLimit headers, answers 429 with Retry-After, and forgives after the window', async () => {
    const a = await tokenFor(svc.url, DEMO.email, DEMO.password);
    const b = await tokenFor(svc.url, DEMO.email, DEMO.password);
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await call(svc.url, 'GET', '/api/v3/account/me', { token: a });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('5');
      seen.push(Number(res.headers.get('x-ratelimit-remaining')));
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
      expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 3);
    }
    expect(seen).toEqual([4, 3, 2, 1, 0]);
    const over = await call(svc.url, 'GET', '/api/v3/account/me', { token: a });
    expect(over.status).toBe(429);
    expect(typeof errorOf(over).error).toBe('string');
    const retry = Number(over.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(3);
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    // Another credential has its own window.
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: b })).status).toBe(200);
    await new Promise((r) => setTimeout(r, retry * 1000 + 100));
    const later = await call(svc.url, 'GET', '/api/v3/account/me', { token: a });
    expect(later.status).toBe(200);
    expect(later.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it('failed credentials count against the caller\'s address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await call(svc.url, 'account.me', '/api/v3/account/me', { token: `s2t_guess${i}` })).status);
    expect(statuses).toContain(429);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
  });
});

describe('account lockout', () => {
  it('ten wrong passwords lock the account (429 with Retry-After) even for the right one; other accounts are unaffected', async () => {
    // A fresh service: the per-address window of this file's other test must not interfere.
    const own = await startService({ args: ['--rate-limit', '1000'] });
    try {
      const form = (password: string) => ({ form: { username: DEMO.email, password } });
      for (let i = 0; i < 10; i++) expect((await call(own.url, 'auth.login', '/api/v3/auth/login?login_type=token', form(`wrong-${i}`))).status).toBe(401);
      const locked = await call(own.url, 'POST', '/api/v3/auth/login?login_type=token', form(DEMO.password));
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800);
      expect(errorOf(locked).access_token).toBeUndefined();
      const other = await call(own.url, 'POST', '/api/v3/auth/login?login_type=token', { form: { username: 'someone@example.com', password: 'whatever-1' } });
      expect(other.status).toBe(401);
    } finally {
      await own.stop();
      cleanup(own.dataDir);
    }
  });
});
