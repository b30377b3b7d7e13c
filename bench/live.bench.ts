/**
 * Live transcription on this machine's cores:
 *  - CPU per second of audio: the streaming decoder (service/realtime, in this process, fed as
 *    fast as it goes) beside the batch decoder (pocketsphinx_continuous per chunk, its children's
 *    CPU) on the same espeak recording;
 *  - the most 1× streams at once (200 ms frames, paced) the local service keeps up with: every
 *    final within 2 s of its phrase's end; beside the number of cores.
 * S2T_BENCH_LIVE_MAX_STREAMS (default 8) bounds the search.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { recognize } from '../service/engines/decode';
import { DecoderPool } from '../service/engines/decoder-pool';
import { DecoderStock } from '../service/realtime/decoder';
import { LiveRecognizer } from '../service/realtime/recognizer';
import { DEMO, startService } from '../test/helpers/service';
import { placedSpeech, type PlacedSpeech } from '../test/helpers/speech';
import { RealtimeClient, realtimeKey } from '../test/service/realtime/client';
import { row, type BenchModule, type BenchRow } from './harness';

const MAX_STREAMS = Number(process.env.S2T_BENCH_LIVE_MAX_STREAMS ?? 8);

/** CPU (µs) of this process's waited-for children (/proc/self/stat cutime + cstime, 10 ms ticks). */
function childrenCpuMicros(): number {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(f[13]) + Number(f[14])) * 10_000;
}

async function liveCpuPerSecond(speech: PlacedSpeech): Promise<number> {
  const wav = readFileSync(speech.path);
  const pcm = new Int16Array(wav.buffer.slice(wav.byteOffset + 44, wav.byteOffset + wav.length));
  const stock = new DecoderStock(1);
  const decoder = await stock.take();
  const before = process.cpuUsage();
  const r = new LiveRecognizer(decoder, { partial: () => {}, final: () => {}, error: (e) => { throw e; } });
  for (let i = 0; i < pcm.length; i += 3200) r.push(pcm.subarray(i, i + 3200));
  await r.flush();
  const used = process.cpuUsage(before);
  await stock.give(decoder);
  await stock.closeAll();
  return (used.user + used.system) / 1000 / (speech.durationMs / 1000);
}

async function batchCpuPerSecond(speech: PlacedSpeech): Promise<number> {
  const before = childrenCpuMicros() + process.cpuUsage().user + process.cpuUsage().system;
  await recognize(speech.path, 'en', { signal: new AbortController().signal, decoders: new DecoderPool(availableParallelism()) });
  const after = childrenCpuMicros() + process.cpuUsage().user + process.cpuUsage().system;
  return (after - before) / 1000 / (speech.durationMs / 1000);
}

/** Streams `n` copies at 1× at once; true when every final came within 2 s of its phrase's end. */
async function keepsUp(url: string, key: string, wav: Buffer, n: number): Promise<boolean> {
  const clients = await Promise.all(Array.from({ length: n }, () => RealtimeClient.connect(url, key)));
  await Promise.all(clients.map((c) => c.start()));
  const sent = await Promise.all(clients.map((c) => c.send(wav)));
  await Promise.all(clients.map((c) => c.stop(300_000)));
  clients.forEach((c) => c.close());
  return clients.every((c, i) =>
    c.finals().every((f) => {
      const endMs = f.result.at(-1)![2];
      const sentAt = sent[i].sentAt[Math.min(sent[i].sentAt.length - 1, Math.floor(endMs / sent[i].frameMs))];
      return f.at - sentAt <= 2000;
    }),
  );
}

export const liveBench: BenchModule = {
  name: 'live',
  async run(): Promise<BenchRow[]> {
    const speech = await placedSpeech({
      sentences: ['the weather is nice today', 'please send the report to my office', 'we will meet again next week', 'the train leaves at nine in the morning'],
      gapsMs: [700, 1500, 1800, 1500],
      tailMs: 1000,
      sampleRate: 16_000,
      container: 'wav',
    });
    const live = await liveCpuPerSecond(speech);
    const batch = await batchCpuPerSecond(speech);
    const rows = [row({ name: 'live: CPU per second of audio, streaming decoder vs batch decoder', unit: 'ms CPU / s', ours: live, peer: batch, target: 'ratio <= 1.5', met: live <= batch * 1.5 })];
    const svc = await startService();
    try {
      const key = await realtimeKey(svc.url, DEMO);
      const wav = readFileSync(speech.path);
      let most = 0;
      for (let n = 1; n <= MAX_STREAMS; n++) {
        if (!(await keepsUp(svc.url, key, wav, n))) break;
        most = n;
      }
      const cores = availableParallelism();
      rows.push(row({ name: `live: most 1× streams at once, every final within 2 s (vs ${cores} cores)`, unit: 'streams', ours: most, peer: cores, target: 'ours >= 1', met: most >= 1 }));
    } finally {
      await svc.stop();
    }
    return rows;
  },
};
