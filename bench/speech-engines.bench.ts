/**
 * Word error rate and real-time factor by speech engine on the same espeak-ng fixtures (three
 * sentences, one voice): the installed Whisper model beside pocketsphinx, both through the same
 * chunking (service/engines/decode.ts recognize). The model is S2T_BENCH_WHISPER_MODEL (a ggml
 * file, e.g. a downloaded ggml-base.en.bin); without it, the generated test model (random weights,
 * test/helpers/whisper-model.ts), marked "generated" in the row names: its words are noise, so
 * only its real-time factor means anything. A machine with a real model runs the same comparison.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { DecoderPool } from '../service/engines/decoder-pool';
import { pocketsphinx, recognize } from '../service/engines/decode';
import type { Recognizer } from '../service/engines/engine';
import { whisperRecognizer } from '../service/engines/whisper';
import { speechWav, wordErrorRate } from '../test/helpers/speech';
import { tinyWhisperModelFile } from '../test/helpers/whisper-model';
import { row, type BenchModule, type BenchRow } from './harness';

const SENTENCES = [
  'The weather today is sunny and warm.',
  'Many people walk in the park with their dogs.',
  'In the evening, families gather for dinner and talk about their day.',
];

function modelUnderTest(): { path: string; name: string; generated: boolean } {
  const given = process.env.S2T_BENCH_WHISPER_MODEL;
  if (given && existsSync(given)) return { path: given, name: given.replace(/^.*\//, ''), generated: false };
  return { path: tinyWhisperModelFile().path, name: 'generated (random weights)', generated: true };
}

async function measure(recognizer: Recognizer): Promise<{ wer: number; rtf: number }> {
  let errors = 0;
  let words = 0;
  let computeMs = 0;
  let audioMs = 0;
  for (const text of SENTENCES) {
    // The service hears 16 kHz mono (the job runner converts every upload to it).
    const wav = `${await speechWav(text)}.16k.wav`;
    if (!existsSync(wav)) execFileSync('sox', [await speechWav(text), '-r', '16000', '-c', '1', '-b', '16', wav]);
    const t0 = performance.now();
    const r = await recognize(wav, 'en', { signal: new AbortController().signal, decoders: DecoderPool.forService(1), recognizer });
    computeMs += performance.now() - t0;
    audioMs += (statSync(wav).size - 44) / 32;
    const n = text.split(/\s+/).length;
    errors += wordErrorRate(text, r.words.map((w) => w.text).join(' ')) * n;
    words += n;
  }
  return { wer: errors / words, rtf: computeMs / audioMs };
}

export const speechEnginesBench: BenchModule = {
  name: 'speech-engines',
  async run(): Promise<BenchRow[]> {
    const model = modelUnderTest();
    const bytes = statSync(model.path).size;
    const sha1 = createHash('sha1').update(readFileSync(model.path)).digest('hex');
    const whisper = whisperRecognizer({ name: 'bench', label: model.name, file: 'x.bin', bytes, sha1, languages: 'multilingual', source: 'file', installed_at: '', speed_rtf: null }, model.path);
    const ps = await measure(pocketsphinx);
    const wm = await measure(whisper);
    const tag = `whisper ${model.name}`;
    return [
      row({ name: `WER ${tag} vs pocketsphinx`, unit: 'share', ours: wm.wer, peer: ps.wer, target: model.generated ? 'none (generated model: noise)' : 'ratio < 1', met: model.generated ? null : wm.wer < ps.wer }),
      row({ name: `real-time factor ${tag} vs pocketsphinx`, unit: 'x audio', ours: wm.rtf, peer: ps.rtf, target: 'ours < 1 (faster than real time)', met: wm.rtf < 1 }),
    ];
  },
};
