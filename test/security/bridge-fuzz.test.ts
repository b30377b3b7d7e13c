/**
 * The web bridge, at volume: 1,000 malformed HTTP request paths and 1,000 malformed WebSocket
 * frames (seeded, so a failure can be replayed) against the built browser-mode app. Afterwards the
 * bridge still serves its page and answers a call, and its process still runs.
 */
import { expect, it } from 'vitest';
import { browserModeAppPerFile, bridgeClient, clientFrame, rawRequest, rawSocket } from './bridge-wire';

/** mulberry32: a small seeded generator, so every run sends the same 2,000 inputs. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(14);
const int = (n: number) => Math.floor(random() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];

const PATH_PIECES = ['%', '%%', '%0', '%zz', '%00', '%2e%2e', '..', '/', '//', '\\', '%c0%af', '%ff', '%E0%A4%A', '?', '#', ';', '*', '@', ':', '[', ']', 'index.html', 'assets', '.map', '\u00e9', '%u0041', '~', ' '];
function hostilePath(): string {
  let p = pick(['/', '//', '', '*', 'http://[', '/assets/']);
  for (let i = int(6) + 1; i > 0; i--) p += pick(PATH_PIECES);
  // Raw bytes too: control characters and bytes above 0x7f, which a client library would escape.
  if (random() < 0.3) p += String.fromCharCode(int(256));
  return p.replace(/ /g, random() < 0.5 ? '%20' : ' ');
}

const JSON_VALUES = ['null', 'true', '0', '-1', '1e309', '""', '[]', '{}', '{"toString":0}', '{"__proto__":{"x":1}}', '"auth.state"', '"shell.exec"', '[1,2]', String(2 ** 60)];
function hostilePayload(): Buffer {
  switch (int(5)) {
    case 0: // random bytes: mostly invalid UTF-8
      return Buffer.from(Array.from({ length: int(64) }, () => int(256)));
    case 1: // broken JSON
      return Buffer.from(pick(['{', '{"id":', '{"id":1,"channel":', '[', '"', 'nul', '{"id":1}}', '\u0000']));
    default: {
      // well-formed JSON with hostile fields
      const fields = [`"id":${pick(['1', '-1', '1.5', '"1"', 'null', '{}', '1e400', '9007199254740993'])}`];
      if (random() < 0.9) fields.push(`"channel":${pick(JSON_VALUES)}`);
      if (random() < 0.8) fields.push(`"args":${pick(JSON_VALUES)}`);
      return Buffer.from(random() < 0.1 ? pick(JSON_VALUES) : `{${fields.join(',')}}`);
    }
  }
}
function hostileFrame(): Buffer {
  const payload = hostilePayload();
  switch (int(6)) {
    case 0: // an opcode the protocol reserves, or a reserved bit set
      return clientFrame(pick([0x3, 0x4, 0x7, 0xb, 0xf]), payload);
    case 1:
      return clientFrame(1, payload, { rsv: 1 + int(7) });
    case 2: // a length that lies (longer than sent, or beyond the limit)
      return clientFrame(1, payload, { claimedLength: pick([payload.length + 1 + int(100), 2 ** 27, 2 ** 40]) });
    case 3: // a continuation with nothing to continue, or a fragment never finished
      return random() < 0.5 ? clientFrame(0, payload) : clientFrame(1, payload, { fin: false });
    case 4: // binary
      return clientFrame(2, payload);
    default:
      return clientFrame(1, payload);
  }
}

const bridge = browserModeAppPerFile();

it('keeps serving after 1,000 malformed paths and 1,000 malformed frames', async () => {
  const statuses = new Map<number, number>();
  const paths = Array.from({ length: 1000 }, hostilePath);
  for (let i = 0; i < paths.length; i += 25) {
    const batch = await Promise.all(paths.slice(i, i + 25).map((p) => rawRequest(bridge.port, `GET ${p} HTTP/1.1`)));
    for (const s of batch) statuses.set(s, (statuses.get(s) ?? 0) + 1);
  }
  // Every path got an answer: a status, never a dead connection.
  expect(statuses.get(0) ?? 0).toBe(0);
  expect([...statuses.keys()].every((s) => [200, 400, 404].includes(s)), JSON.stringify([...statuses])).toBe(true);

  // Frames go ten to a socket; a socket the bridge closes is replaced.
  let sent = 0;
  let closes = 0;
  while (sent < 1000) {
    const { socket, closed } = await rawSocket(bridge.port, bridge.token);
    let open = true;
    void closed.then(() => (open = false));
    for (let i = 0; i < 10 && open && sent < 1000; i++, sent++) {
      socket.write(hostileFrame());
      await new Promise((r) => setImmediate(r));
    }
    socket.destroy();
    if ((await closed) !== null) closes++;
  }
  expect(sent).toBe(1000);
  expect(closes).toBeGreaterThan(0);

  expect(bridge.app.child.exitCode).toBeNull();
  expect((await fetch(`http://127.0.0.1:${bridge.port}/`)).status).toBe(200);
  const { ws, call } = await bridgeClient(bridge.port, bridge.token);
  expect(await call('auth.state')).toMatchObject({ ok: true, value: { mode: 'local' } });
  ws.close();
}, 180_000);
