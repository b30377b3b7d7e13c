/**
 * The accounts the app knows and the check of a service address, over real HTTP: the real local
 * service passes; a web page, a JSON API of another shape and a closed port are each refused with
 * a sentence; addresses are made canonical; the book survives a restart and gives each service
 * its own folder.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountBook, accountDataDir, checkService, LOCAL_ID, normalizeServiceUrl } from '../../../main/auth/accounts';
import { startService, stopAndRemove, tempDirs, type RunningService } from '../../helpers/service';

let svc: RunningService;
let other: Server;
let otherUrl: string;
const dirs = tempDirs();

beforeAll(async () => {
  svc = await startService();
  // Something else on the network: a web page at /, and a JSON 404 everywhere else.
  other = createServer((req, res) => {
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Welcome</h1>');
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"no such route"}');
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  other?.close();
  await stopAndRemove(svc);
  dirs.removeAll();
});

describe('the service check', () => {
  it('passes the interface and refuses anything else, in words', async () => {
    await expect(checkService(svc.url)).resolves.toBeUndefined();
    await expect(checkService(otherUrl)).rejects.toThrow('not as a speech-to-text service does (HTTP 404)');
    // The same address once nothing listens there.
    await new Promise<void>((r) => other.close(() => r()));
    await expect(checkService(otherUrl)).rejects.toThrow('Nothing answers at');
  });

  it('makes addresses canonical and refuses what is not one', () => {
    expect(normalizeServiceUrl(' https://S2T.example.com/api/ ')).toBe('https://s2t.example.com/api');
    expect(normalizeServiceUrl('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(() => normalizeServiceUrl('s2t.example.com')).toThrow('not a web address');
    expect(() => normalizeServiceUrl('ftp://s2t.example.com')).toThrow('must start with https://');
    expect(() => normalizeServiceUrl('https://me:pw@s2t.example.com')).toThrow('without a name, password');
  });
});

describe('the account book', () => {
  it('keeps the accounts and the active one across a restart, each service in its own folder', () => {
    const dataDir = dirs.make('s2t-accounts-');
    const book = new AccountBook(dataDir);
    expect(book.active).toBe(LOCAL_ID);
    const a = book.add('https://a.example.com');
    expect(book.add('https://a.example.com').id).toBe(a.id); // once
    const b = book.add('https://b.example.com');
    book.setActive(b.id);
    book.rememberEmail(b.id, 'me@b.example.com');

    const again = new AccountBook(dataDir);
    expect(again.active).toBe(b.id);
    expect(again.list().map((x) => [x.kind, x.serviceUrl, x.email])).toEqual([
      ['local', null, null],
      ['cloud', 'https://a.example.com', null],
      ['cloud', 'https://b.example.com', 'me@b.example.com'],
    ]);
    expect(accountDataDir(dataDir, LOCAL_ID)).toBe(dataDir);
    expect(accountDataDir(dataDir, a.id)).toBe(join(dataDir, 'accounts', a.id));
    expect(accountDataDir(dataDir, a.id)).not.toBe(accountDataDir(dataDir, b.id));
  });
});
