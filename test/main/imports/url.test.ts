/**
 * An import of a URL (media_source): nothing is uploaded, the service downloads the media itself
 * and the import reaches done with a session whose transcript has words. The service runs on the
 * service tests' test network (a fake DNS; only the media server's address is exempt from the
 * private-range check), so its download guard runs as in production.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { plainText, type DocumentContent } from '../../../common/transcript/model';
import { DEMO, serviceLogin, tempDirs, type RunningService } from '../../helpers/service';
import { speechWav, words } from '../../helpers/speech';
import { closeServer, FakeDns, listenOnTestAddress, startTestNetworkService, TEST_ADDRESS } from '../../service/work/test-network';
import { countingProxy, until, type CountingProxy } from '../watch/helpers';
import { importsHarness, latest, type ImportsHarness } from './helpers';

let svc: RunningService;
let media: Server;
let port: number;
let proxy: CountingProxy;
let h: ImportsHarness;
const dirs = tempDirs();

beforeAll(async () => {
  const wav = readFileSync(await speechWav('the river was high after the rain last night'));
  media = createServer((req, res) => {
    if (req.url === '/talk.wav') res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length }).end(wav);
    else res.writeHead(404).end();
  });
  port = await listenOnTestAddress(media);
  const dns = new FakeDns(dirs.make('s2t-import-url-dns-'));
  dns.set('media.test.example', TEST_ADDRESS);
  svc = await startTestNetworkService({ dns });
  proxy = await countingProxy(svc.url);
  h = importsHarness(proxy.url, dirs.make('s2t-import-url-data-'));
  await h.watch.start();
}, 60_000);

afterAll(async () => {
  await h?.watch.close();
  await proxy?.close();
  await svc?.stop();
  if (media) await closeServer(media);
  if (svc) dirs.all.push(svc.dataDir);
  dirs.removeAll();
});

it('imports a URL: the service downloads it, nothing is uploaded, and the session has words', async () => {
  const url = `http://media.test.example:${port}/talk.wav`;
  const { items } = await h.call('imports.add', { sources: [{ kind: 'url', url }], options: { language: 'en-US' } });
  expect(items[0]).toMatchObject({ name: url, state: 'queued', source: { kind: 'url', url } });
  const done = await until('the URL import done', () => (latest(h.events, items[0].itemId)?.state === 'done' ? latest(h.events, items[0].itemId) : null), 120_000);
  // Requests only: no media body went through the app's connection.
  expect(proxy.sent()).toBeLessThan(16 * 1024);
  // No local file stands for it.
  expect(h.known).toEqual([]);
  const token = await serviceLogin(svc.url, DEMO);
  const docs = (await (await fetch(`${svc.url}/api/v3/speech-to-text/session/${done.sessionId}/document?include_content=true`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
    result: { type: string; document?: { content: DocumentContent } }[];
  };
  expect(words(plainText(docs.result.find((d) => d.type === 'document')!.document!.content)).length).toBeGreaterThan(2);

  // align or upload cannot take a URL: refused before anything is sent.
  await expect(h.call('imports.add', { sources: [{ kind: 'url', url }], options: { language: 'en-US', mode: 'align' } })).rejects.toMatchObject({ code: 'REFUSED', message: expect.stringMatching(/URL can only be transcribed/) });
}, 180_000);
