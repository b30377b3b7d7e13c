/**
 * The upload bodies fetch is given: our own streams over the open file handle, never a Blob, File
 * or FormData (whose bytes Node's fetch pumps from a promise nothing awaits). The multipart body is
 * read by the real service's parser: the same bytes, the name as given (quotes and line breaks
 * escaped as browsers do); a request cut short, by an abort or by the server hanging up, rejects
 * the fetch and leaves nothing thrown anywhere else.
 */
import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer } from 'node:http';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiClient, type AuthSource } from '../../../main/api/client';
import { handleBody, handleFileReader, multipartBody } from '../../../main/watch/file-body';
import { DEMO, serviceLogin, startService, stopAndRemove, tempDir, type RunningService } from '../../helpers/service';
import { readServiceDb } from '../../helpers/service-db';
import { speechWav } from '../../helpers/speech';
import { client } from '../../service/work/helpers';

let svc: RunningService;
let token: string;
const dir = tempDir('s2t-file-body-');

beforeAll(async () => {
  svc = await startService();
  token = await serviceLogin(svc.url, DEMO);
}, 60_000);
afterAll(() => stopAndRemove(svc, dir));

const send = (url: string, body: { open(): ReadableStream; length: number; contentType: string }, init: RequestInit = {}) =>
  fetch(url, { method: 'POST', body: body.open(), headers: { 'content-type': body.contentType, 'content-length': String(body.length), authorization: `Bearer ${token}` }, duplex: 'half', ...init } as RequestInit);

it('sends a file as the one part of a multipart body that the service reads back byte for byte, name and all', async () => {
  const wav = await speechWav('the parcel arrived this morning');
  const handle = await open(wav);
  try {
    const size = (await handle.stat()).size;
    const body = multipartBody({ handle, size }, 'file', 'the "final" take\n2.wav', 'audio/wav');
    const res = await send(`${svc.url}/api/v3/batch/upload`, body);
    expect(res.status, await res.clone().text()).toBe(200);
    const answer = (await res.json()) as { file_id: string; filename: string; size_bytes: number; media_type: string };
    // The quotes come back as they were; the line break, escaped so it could not end the header, is dropped by the service's name rules.
    expect(answer).toMatchObject({ filename: 'the "final" take2.wav', size_bytes: size, media_type: 'audio/wav' });
    const stored = readServiceDb(svc.dataDir, (db) => db.prepare('SELECT path FROM uploads WHERE file_id = ?').pluck().get(answer.file_id) as string);
    expect(readFileSync(stored).equals(readFileSync(wav))).toBe(true);
  } finally {
    await handle.close();
  }
});

it('a body given as a function is opened afresh when the client tries again with a new batch key, and arrives whole', async () => {
  const wav = await speechWav('the second try sends every byte');
  const valid = (await client(svc.url)).batchKey;
  let key = valid;
  const auth: AuthSource = { accessToken: async () => token, batchKey: async () => key, invalidateBatchKey: async () => void (key = valid), unauthorized: () => {} };
  const api = new ApiClient({ baseUrl: svc.url, auth });
  const sessionId = (await api.call('sessions.create', { body: { language: 'en' } })).result.session_id;
  key = 'a-key-the-service-never-issued';
  const handle = await open(wav);
  try {
    let opened = 0;
    const body = handleBody({ handle, size: (await handle.stat()).size }, 'audio/wav');
    const open1 = () => (opened++, body.open());
    await api.call('sessions.upload', { params: { sessionId }, body: open1, headers: { 'x-filename': 'again.wav', 'content-type': body.contentType, 'content-length': String(body.length) } }, { retries: 0 });
    expect(opened).toBe(2);
    const stored = readServiceDb(svc.dataDir, (db) => db.prepare('SELECT media_path FROM sessions WHERE session_id = ?').pluck().get(sessionId) as string);
    expect(readFileSync(stored).equals(readFileSync(wav))).toBe(true);
  } finally {
    await handle.close();
  }
});

it('a body cut short (aborted mid-way, or the server hanging up) rejects the fetch and throws nowhere else', async () => {
  const file = join(dir, 'big.bin');
  writeFileSync(file, randomBytes(8 * 1024 * 1024));
  const stray: unknown[] = [];
  const onStray = (e: unknown) => stray.push(e);
  process.on('unhandledRejection', onStray);
  process.on('uncaughtException', onStray);
  // /hangup: the server hangs up after the first bytes; /hold: it reads on and never answers, and the client aborts.
  const server = createServer((req) => {
    if (req.url === '/hangup') req.once('data', () => req.socket.destroy());
    else req.resume();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const handle = await open(file);
  try {
    let read = 0;
    for (let i = 0; i < 20; i++) {
      const body = i % 4 < 2 ? multipartBody({ handle, size: 8 * 1024 * 1024 }, 'file', 'big.bin', 'application/octet-stream') : handleBody({ handle, size: 8 * 1024 * 1024 }, 'application/octet-stream', (n) => (read = n));
      if (i % 2 === 1) {
        await expect(send(`${base}/hangup`, body)).rejects.toThrow();
        continue;
      }
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 5 + i);
      await expect(send(`${base}/hold`, body, { signal: ac.signal })).rejects.toThrow();
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(stray).toEqual([]);
    expect(read).toBeGreaterThan(0);
  } finally {
    process.off('unhandledRejection', onStray);
    process.off('uncaughtException', onStray);
    await handle.close();
    server.closeAllConnections();
    server.close();
  }
});

it("tus's chunks are ranges of the handle, byte for byte, and leave nothing hanging on it however many there are", async () => {
  const path = join(dir, 'chunks.bin');
  const bytes = randomBytes(300_000);
  writeFileSync(path, bytes);
  const handle = await open(path);
  try {
    const file = await handleFileReader({ handle, size: bytes.length }).openFile();
    const step = 20_000;
    const parts: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += step) {
      const { value, done } = await file.slice(at, at + step);
      expect(value.size).toBe(Math.min(step, bytes.length - at));
      const chunks: Buffer[] = [];
      for await (const c of value) chunks.push(c as Buffer);
      parts.push(Buffer.concat(chunks));
      expect(done).toBe(at + step >= bytes.length);
    }
    expect(Buffer.concat(parts).equals(bytes)).toBe(true);
    // The handle's own read streams each left a listener on it until it closed (15 here). A
    // FileHandle is an EventEmitter at run time, though its type does not say so.
    expect((handle as unknown as EventEmitter).listenerCount('close')).toBe(0);
  } finally {
    await handle.close();
  }
});

it("a tus chunk whose file is closed while it is read (a paused upload) stops short and throws nowhere", async () => {
  const path = join(dir, 'closed.bin');
  writeFileSync(path, randomBytes(2_000_000));
  const handle = await open(path);
  const file = await handleFileReader({ handle, size: 2_000_000 }).openFile();
  const { value } = await file.slice(0, 2_000_000);
  // As tus sends it: piped on, with no listener for the chunk's own errors.
  const sent: Buffer[] = [];
  const sink = new Writable({ highWaterMark: 1, write: (c: Buffer, _e, done) => void (sent.push(c), setTimeout(done, 5)) });
  value.pipe(sink);
  await new Promise((r) => setTimeout(r, 20));
  await handle.close();
  await new Promise((r) => setTimeout(r, 300));
  expect(value.destroyed).toBe(true);
  expect(Buffer.concat(sent).length).toBeLessThan(2_000_000);
});
