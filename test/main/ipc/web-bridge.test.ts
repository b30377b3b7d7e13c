/**
 * The web bridge listens on loopback only and refuses a wrong token, a foreign Origin and a
 * foreign Host; a correct client reaches the handlers through the contract's validation.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { AuthState } from '../../../common/ipc';
import type { Handlers } from '../../../main/ipc/registry';
import { startWebBridge, type WebBridge } from '../../../main/ipc/web-bridge';
import { requestFrame } from '../../../renderer/src/lib/bridge';
import { admit } from '../../helpers/app';

const state: AuthState = { signedIn: false, serviceUrl: 'http://127.0.0.1:1', mode: 'local', user: null };
// The transport is under test here: its handlers are a plain object answering two channels.
const heard: Uint8Array[] = [];
const handlers = {
  'auth.state': async () => state,
  'live.audio': async (args: { pcm: Uint8Array }) => (heard.push(args.pcm), { recordedMs: args.pcm.byteLength / 32 }),
  'search.text': async (args: { q: string }) => [{ session_id: 's', document_id: 'd', filename: 'f', snippet: args.q, time_ms: 0 }],
} as unknown as Handlers;

let bridge: WebBridge;
let session: string;
let origin: string;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 's2t-static-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>');
  bridge = await startWebBridge({ handlers, staticDir: dir });
  origin = `http://127.0.0.1:${bridge.port}`;
  session = await admit(bridge.newUrl());
});
afterAll(() => bridge.close());

function open(opts: { token?: string; origin?: string; host?: string }): Promise<{ ws?: WebSocket; status?: number }> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = {};
    if (opts.origin !== undefined) headers.origin = opts.origin;
    if (opts.host) headers.host = opts.host;
    const ws = new WebSocket(`ws://127.0.0.1:${bridge.port}/bridge`, [`s2t.${opts.token ?? session}`], { headers });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
    ws.once('error', () => resolve({}));
  });
}

/** A call as the renderer's bridge makes it (JSON, or a binary frame when an argument is bytes). */
function call(ws: WebSocket, channel: string, args: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
  return new Promise((resolve) => {
    const id = Math.floor(Math.random() * 1e9);
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data));
      if (frame.id === id) resolve(frame.reply);
    });
    ws.send(requestFrame(id, channel, args));
  });
}

const closeCode = (ws: WebSocket) => new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));

describe('web bridge', () => {
  it('listens on 127.0.0.1 and prints the token only in the URL fragment', () => {
    expect(bridge.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{20,}$/);
  });

  it('answers a correct client through the contract', async () => {
    const { ws } = await open({ origin });
    expect(ws).toBeDefined();
    expect(await call(ws!, 'auth.state', {})).toEqual({ ok: true, value: state });
    const bad = await call(ws!, 'search.text', { q: '' });
    expect(bad.ok).toBe(false);
    expect(bad.error?.code).toBe('BAD_ARGUMENTS');
    const unknown = await call(ws!, 'shell.exec', {});
    expect(unknown.error?.code).toBe('UNKNOWN_CHANNEL');
    ws!.close();
  });

  it('carries bytes as a binary frame, checked by the contract (type, whole samples, at most a second)', async () => {
    const { ws } = await open({ origin });
    const pcm = new Uint8Array(32_000).map((_, i) => i % 253);
    expect(requestFrame(1, 'live.audio', { pcm })).toBeInstanceOf(Uint8Array);
    expect(await call(ws!, 'live.audio', { pcm })).toEqual({ ok: true, value: { recordedMs: 1000 } });
    expect(heard.at(-1)).toEqual(pcm);
    expect(await call(ws!, 'live.audio', { pcm: new Uint8Array(32_002) })).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENTS' } });
    expect(await call(ws!, 'live.audio', { pcm: new Uint8Array(7) })).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENTS', message: expect.stringMatching(/whole 16-bit samples/) } });
    // The bytes as text (base64 in JSON) are not bytes.
    expect(await call(ws!, 'live.audio', { pcm: Buffer.from(pcm).toString('base64') })).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENTS' } });
    expect(heard).toHaveLength(1);
    ws!.close();
  });

  it('closes on a binary frame that is not a header and bytes', async () => {
    for (const frame of [Buffer.from([1, 2]), Buffer.from([255, 255, 0, 0, 1]), Buffer.concat([Buffer.from([3, 0, 0, 0]), Buffer.from('{x}')]), Buffer.concat([Buffer.from([2, 0, 0, 0]), Buffer.from('{}')])]) {
      const { ws } = await open({ origin });
      const closed = closeCode(ws!);
      ws!.send(frame);
      expect(await closed).toBe(1003);
    }
    // The bridge still answers.
    const { ws } = await open({ origin });
    expect(await call(ws!, 'auth.state', {})).toEqual({ ok: true, value: state });
    ws!.close();
  });

  it('refuses a wrong session', async () => {
    expect((await open({ origin, token: 'x'.repeat(32) })).status).toBe(401);
  });

  it('refuses a foreign Origin, and a missing one', async () => {
    expect((await open({ origin: 'http://evil.example' })).status).toBe(403);
    expect((await open({ origin: 'http://127.0.0.1:1' })).status).toBe(403);
    expect((await open({})).status).toBe(403);
  });

  it('admits a printed address once: its ticket buys one session, then nothing; the ticket itself opens no socket', async () => {
    const url = bridge.newUrl();
    const ticket = /token=([\w-]+)/.exec(new URL(url).hash)![1];
    const spend = () => fetch(`${origin}/admit`, { method: 'POST', headers: { origin, 'x-s2t-ticket': ticket } });
    expect((await open({ origin, token: ticket })).status).toBe(401);
    const first = await spend();
    expect(first.status).toBe(200);
    const { session: fresh } = (await first.json()) as { session: string };
    const again = await spend();
    expect(again.status).toBe(401);
    expect(((await again.json()) as { error: string }).error).toMatch(/Press Enter in the terminal/);
    const { ws } = await open({ origin, token: fresh });
    expect(ws).toBeDefined();
    ws!.close();
  });

  it('admits only from its own pages, by POST', async () => {
    const ticket = /token=([\w-]+)/.exec(new URL(bridge.newUrl()).hash)![1];
    expect((await fetch(`${origin}/admit`, { method: 'POST', headers: { origin: 'http://127.0.0.1:1', 'x-s2t-ticket': ticket } })).status).toBe(403);
    expect((await fetch(`${origin}/admit`, { headers: { origin, 'x-s2t-ticket': ticket } })).status).toBe(405);
    // Neither spent the ticket.
    expect((await fetch(`${origin}/admit`, { method: 'POST', headers: { origin, 'x-s2t-ticket': ticket } })).status).toBe(200);
  });

  it('keeps only the newest unopened addresses', async () => {
    const oldest = /token=([\w-]+)/.exec(new URL(bridge.newUrl()).hash)![1];
    for (let i = 0; i < 16; i++) bridge.newUrl();
    expect((await fetch(`${origin}/admit`, { method: 'POST', headers: { origin, 'x-s2t-ticket': oldest } })).status).toBe(401);
  });

  it('refuses a foreign Host header (DNS rebinding), on the socket and on pages', async () => {
    expect((await open({ origin, host: `evil.example:${bridge.port}` })).status).toBe(421);
    const status = await new Promise<number>((resolve) => {
      request({ host: '127.0.0.1', port: bridge.port, path: '/', headers: { host: 'evil.example' } }, (res) => resolve(res.statusCode!)).end();
    });
    expect(status).toBe(421);
  });

  it('serves the renderer with a content security policy, and nothing outside its folder', async () => {
    const res = await fetch(`${origin}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("object-src 'none'");
    const escape = await new Promise<number>((resolve) => {
      request({ host: '127.0.0.1', port: bridge.port, path: '/%2e%2e/%2e%2e/etc/passwd' }, (r) => resolve(r.statusCode!)).end();
    });
    expect(escape).toBe(404);
  });
});
