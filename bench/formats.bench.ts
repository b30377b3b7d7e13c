/**
 * All nine export formats for a 3-hour transcript (27,000 words), per format, and SRT/VTT writing
 * beside the npm `subtitle` package writing the same cues (its stringifySync). No library renders
 * the other formats from this model, so each format's peer is a raw baseline measured beside it:
 * JSON.stringify of the same document, encoded as UTF-8 (the least work that turns it into bytes).
 */
import { stringifySync, type NodeList } from 'subtitle';
import type { ExportFormat } from '../common/api/enums';
import { ExportFormat as ExportFormats } from '../common/api/enums';
import { renderExport } from '../common/formats';
import { outputCues, resolveSource } from '../common/formats/source';
import { writeSrt } from '../common/formats/srt';
import { writeVtt } from '../common/formats/vtt';
import type { TranscriptContent } from '../common/transcript/model';
import { pdfFonts, printedText } from '../main/platform/fonts';
import { row, timedInTurns, timeMs, type BenchModule, type BenchRow } from './harness';

const VOCAB = 'the of and to a in that is was he for it with as his on be at by I this had not are but from or have an they which one you were her all she there would their we him been has when who will more no if out so said what up its about into than them can only other new some could time these two may then do first any my now such like our over man me even most made after also did many before must through back years where much your way well down should because each just those people'.split(' ');

/** A deterministic 3-hour talk: 27,000 words, four speakers, sentences and pauses. */
export function threeHourTranscript(words = 27_000, durationMs = 3 * 3600 * 1000): TranscriptContent {
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const step = Math.floor(durationMs / words);
  const segments: TranscriptContent['segments'] = [];
  let t = 0;
  let n = 0;
  while (n < words) {
    const len = Math.min(words - n, 12 + Math.floor(rand() * 30));
    const ws = [];
    for (let k = 0; k < len; k++, n++) {
      let text = VOCAB[Math.floor(rand() * VOCAB.length)];
      if (k === 0) text = text[0].toUpperCase() + text.slice(1);
      if (k === len - 1) text += '.';
      else if (rand() < 0.08) text += rand() < 0.5 ? ',' : '.';
      ws.push({ text, start_ms: t, end_ms: t + step - 40, confidence: 0.9 });
      t += step;
    }
    segments.push({ id: `s${segments.length + 1}`, speaker_id: `spk-${(segments.length % 4) + 1}`, start_ms: ws[0].start_ms, end_ms: ws[ws.length - 1].end_ms, words: ws });
  }
  const speakers = [1, 2, 3, 4].map((i) => ({ id: `spk-${i}`, name: `Speaker ${i}` }));
  return { kind: 'transcript', version: 1, speakers, segments, summary: 'A long talk used to measure the exporters.' };
}

async function median(runs: number, fn: () => unknown): Promise<number> {
  const times: number[] = [];
  await fn(); // warm-up: JIT and lazy tables
  for (let i = 0; i < runs; i++) times.push(await timeMs(fn));
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** SRT and VTT writing take about a millisecond: timed in turns with the peer, where the collector runs would otherwise decide the row. */
const WRITE_RUNS = 101;

export const formatsBench: BenchModule = {
  name: 'formats',
  async run(): Promise<BenchRow[]> {
    const content = threeHourTranscript();
    const doc = { filename: 'three-hours.mp4', language: 'en', timecode_offset: '00:00:00:00', document: { document_type: 'transcript' as const, metadata: { frame_rate: 25 }, content } };
    // The fonts the app uses: the bundled DejaVu Sans, found by the app's loader.
    const fonts = pdfFonts(printedText(content, doc.filename));
    const encoder = new TextEncoder();
    const rawBaseline = () => encoder.encode(JSON.stringify(doc));
    const rows: BenchRow[] = [];

    // Same cues for both writers: the segmentation is ours, the text writing is compared.
    const cues = outputCues(resolveSource('srt', doc));
    const nodes: NodeList = cues.map((c) => ({ type: 'cue', data: { start: c.start_ms, end: c.end_ms, text: c.lines.join('\n') } }));
    for (const [name, ours, peer] of [
      ['srt', () => writeSrt(cues, 'none'), () => stringifySync(nodes, { format: 'SRT' })],
      ['vtt', () => writeVtt(cues, 'none'), () => stringifySync(nodes, { format: 'WebVTT' })],
    ] as const) {
      const { ours: o, peer: p } = await timedInTurns(WRITE_RUNS, ours, peer, { warmUp: true });
      rows.push(row({ name: `formats ${name} write ${cues.length} cues vs subtitle.stringifySync (medians of ${WRITE_RUNS}, in turns)`, unit: 'ms', ours: o, peer: p, target: 'ratio <= 1', met: o <= p }));
    }

    let total = 0;
    let totalBaseline = 0;
    for (const f of ExportFormats.options as ExportFormat[]) {
      const ms = await median(5, () => renderExport(f, doc, fonts));
      const base = await median(5, rawBaseline);
      total += ms;
      totalBaseline += base;
      rows.push(row({ name: `formats ${f} render 3 h / 27,000 words vs raw baseline (JSON.stringify + UTF-8 of the document)`, unit: 'ms', ours: ms, peer: base, target: 'part of the total', met: null }));
    }
    rows.push(row({ name: 'formats all nine formats, 3 h transcript vs nine raw baselines (JSON.stringify + UTF-8)', unit: 'ms', ours: total, peer: totalBaseline, target: 'ratio <= 5', met: total <= 5 * totalBaseline }));
    return rows;
  },
};
