/**
 * The smallest model whisper.cpp loads and runs: the real ggml file layout (magic, hyper-parameters,
 * mel filters, vocabulary, named tensors) with tiny dimensions and seeded random weights. What it
 * "hears" is noise, but loading it, running it over real audio, its segment times, progress,
 * cancel and errors are whisper.cpp's own. No real weights can be downloaded on these machines.
 *
 * Layout read from whisper.cpp's whisper_model_load (src/whisper.cpp) and tensor names from
 * src/whisper-arch.h.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const GGML_MAGIC = 0x67676d6c;
/** 51865 tokens make whisper.cpp treat the model as multilingual (every language key it knows). */
const N_VOCAB = 51865;
/** Text tokens written to the file; whisper.cpp names the rest (special and timestamp tokens) itself. */
const TEXT_TOKENS = 50257;
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'po', 'da', 'fe'];

export interface TinyModelShape {
  state: number;
  heads: number;
  layers: number;
  audioCtx: number;
  textCtx: number;
  mels: number;
}

/** 1500 audio positions: whisper.cpp always feeds 30 s of mel frames (3000, halved by conv2). */
export const TINY_SHAPE: TinyModelShape = { state: 32, heads: 1, layers: 1, audioCtx: 1500, textCtx: 448, mels: 80 };

/** Mulberry32: the same weights on every run, so the same file (and checksum) every time. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The model file's bytes. */
export function tinyWhisperModel(shape: TinyModelShape = TINY_SHAPE, seed = 7): Buffer {
  const { state, layers, audioCtx, textCtx, mels } = shape;
  const rnd = random(seed);
  const parts: Buffer[] = [];
  const ints = (...v: number[]) => {
    const b = Buffer.alloc(4 * v.length);
    v.forEach((x, i) => b.writeInt32LE(x, 4 * i));
    parts.push(b);
  };
  const floats = (n: number, fill: (i: number) => number, half = false) => {
    const a = half ? new Float16Array(n) : new Float32Array(n);
    for (let i = 0; i < n; i++) a[i] = fill(i);
    parts.push(Buffer.from(a.buffer));
  };
  const noise = (scale: number) => () => (rnd() * 2 - 1) * scale;

  parts.push(Buffer.from(new Uint32Array([GGML_MAGIC]).buffer));
  // n_vocab, n_audio_ctx, n_audio_state, n_audio_head, n_audio_layer, n_text_ctx, n_text_state, n_text_head, n_text_layer, n_mels, ftype.
  // ftype 1 (f16): whisper.cpp's conv kernels take only f16 weights, as every published model has.
  ints(N_VOCAB, audioCtx, state, shape.heads, layers, textCtx, state, shape.heads, layers, mels, 1);
  // Mel filters: n_mel x n_fft (201 bins of a 400-sample FFT), each a small positive weight.
  ints(mels, 201);
  floats(mels * 201, () => rnd() * 0.01);
  ints(TEXT_TOKENS);
  for (let i = 0; i < TEXT_TOKENS; i++) {
    // Token 0 is the blank " ", which whisper.cpp looks up by text to suppress a blank first token.
    const word = i === 0 ? ' ' : `${i % 3 === 0 ? ' ' : ''}${SYLLABLES[i % SYLLABLES.length]}${SYLLABLES[Math.floor(i / SYLLABLES.length) % SYLLABLES.length]}`;
    const bytes = Buffer.from(word);
    ints(bytes.length);
    parts.push(bytes);
  }
  // Weight matrices and conv kernels are f16 (ggml type 1); embeddings of positions, biases and norms f32 (type 0).
  const tensor = (name: string, ne: number[], kind: 'w' | 'ones' | 'zeros' = 'w') => {
    const n = ne.reduce((a, b) => a * b, 1);
    const half = kind === 'w' && ne.length > 1 && !name.endsWith('positional_embedding');
    const nameBytes = Buffer.from(name);
    ints(ne.length, nameBytes.length, half ? 1 : 0, ...ne);
    parts.push(nameBytes);
    floats(n, kind === 'ones' ? () => 1 : kind === 'zeros' ? () => 0 : noise(0.1), half);
  };
  const norm = (name: string) => {
    tensor(`${name}.weight`, [state], 'ones');
    tensor(`${name}.bias`, [state], 'zeros');
  };
  const attention = (prefix: string) => {
    tensor(`${prefix}.query.weight`, [state, state]);
    tensor(`${prefix}.query.bias`, [state], 'zeros');
    tensor(`${prefix}.key.weight`, [state, state]);
    tensor(`${prefix}.value.weight`, [state, state]);
    tensor(`${prefix}.value.bias`, [state], 'zeros');
    tensor(`${prefix}.out.weight`, [state, state]);
    tensor(`${prefix}.out.bias`, [state], 'zeros');
  };
  const block = (prefix: string, cross: boolean) => {
    norm(`${prefix}.mlp_ln`);
    tensor(`${prefix}.mlp.0.weight`, [state, 4 * state]);
    tensor(`${prefix}.mlp.0.bias`, [4 * state], 'zeros');
    tensor(`${prefix}.mlp.2.weight`, [4 * state, state]);
    tensor(`${prefix}.mlp.2.bias`, [state], 'zeros');
    norm(`${prefix}.attn_ln`);
    attention(`${prefix}.attn`);
    if (cross) {
      norm(`${prefix}.cross_attn_ln`);
      attention(`${prefix}.cross_attn`);
    }
  };
  tensor('encoder.positional_embedding', [state, audioCtx]);
  tensor('encoder.conv1.weight', [3, mels, state]);
  tensor('encoder.conv1.bias', [1, state], 'zeros');
  tensor('encoder.conv2.weight', [3, state, state]);
  tensor('encoder.conv2.bias', [1, state], 'zeros');
  norm('encoder.ln_post');
  for (let i = 0; i < layers; i++) block(`encoder.blocks.${i}`, false);
  tensor('decoder.positional_embedding', [state, textCtx]);
  tensor('decoder.token_embedding.weight', [state, N_VOCAB]);
  norm('decoder.ln');
  for (let i = 0; i < layers; i++) block(`decoder.blocks.${i}`, true);
  return Buffer.concat(parts);
}

/** The generated model as a file in the temp dir (written once per seed; private name, then rename). */
export function tinyWhisperModelFile(seed = 7): { path: string; sha256: string; bytes: number } {
  const dir = join(tmpdir(), 's2t-models');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `ggml-generated-tiny-v2-${seed}.bin`);
  if (!existsSync(path)) {
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, tinyWhisperModel(TINY_SHAPE, seed));
    renameSync(partial, path);
  }
  const data = tinyWhisperModel(TINY_SHAPE, seed);
  return { path, sha256: createHash('sha256').update(data).digest('hex'), bytes: data.length };
}
