/** TXT and HTML writers, and the shared rules: offsets, speakers, summaries, captions as transcripts. */
import { describe, expect, it } from 'vitest';
import { FORMAT_FILES, FormatError, renderExport } from '../../../common/formats';
import type { Document } from '../../../common/api/resources';
import type { CaptionContent, TranscriptContent } from '../../../common/transcript';

const text = (b: Uint8Array | Promise<Uint8Array>) => new TextDecoder().decode(b as Uint8Array);
const t: TranscriptContent = {
  kind: 'transcript',
  version: 1,
  speakers: [{ id: 'a', name: 'Ann <the host>' }],
  summary: 'Tom & Jerry meet.',
  segments: [
    { id: 's1', speaker_id: 'a', start_ms: 61_000, end_ms: 63_000, words: [{ text: 'Hi', start_ms: 61_500, end_ms: 62_000, confidence: 1 }, { text: '<b>there</b>', start_ms: 62_000, end_ms: 63_000, confidence: 1 }] },
    { id: 's2', speaker_id: null, start_ms: 64_000, end_ms: 65_000, words: [] },
    { id: 's3', speaker_id: null, start_ms: 3_723_000, end_ms: 3_724_000, words: [{ text: 'Bye.', start_ms: 3_723_000, end_ms: 3_724_000, confidence: 1 }] },
  ],
};

describe('TXT', () => {
  it('prints paragraphs, with or without timestamps and speakers; empty segments are skipped', () => {
    expect(text(renderExport('txt', t))).toBe('Summary: Tom & Jerry meet.\n\nAnn <the host>: Hi <b>there</b>\n\nBye.\n');
    expect(text(renderExport('txt', t, { timestamps: true, speakers: 'none' }))).toBe('Summary: Tom & Jerry meet.\n\n[00:01:01] Hi <b>there</b>\n\n[01:02:03] Bye.\n');
  });

  it('shows SMPTE timecodes when the document has a timecode offset', () => {
    const doc = { timecode_offset: '10:00:00:12', document: { document_type: 'transcript' as const, metadata: { frame_rate: 25 }, content: t } };
    expect(text(renderExport('txt', doc, { timestamps: true }))).toContain('[10:01:01:12] Ann <the host>: Hi');
  });

  it('prints captions one cue a paragraph', () => {
    const c: CaptionContent = { kind: 'caption', version: 1, speakers: [], cues: [{ id: 'x', start_ms: 0, end_ms: 1000, lines: ['one', 'two'] }, { id: 'y', start_ms: 2000, end_ms: 3000, lines: ['three'] }] };
    expect(text(renderExport('txt', c, { timestamps: true }))).toBe('[00:00:00] one two\n\n[00:00:02] three\n');
  });
});

describe('HTML', () => {
  it('is a standalone, escaped page with speakers, timestamps and the summary', () => {
    const html = text(renderExport('html', { filename: 'Q&A <live>.mp3', language: 'fr', document: { document_type: 'transcript', metadata: {}, content: t } }));
    expect(html).toMatch(/^<!DOCTYPE html>\n<html lang="fr">/);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<title>Q&amp;A &lt;live&gt;</title>');
    expect(html).toContain('<p dir="auto">Tom &amp; Jerry meet.</p>');
    expect(html).toContain('<p class="segment" data-start-ms="61000"><span class="time">00:01:01</span> <span class="speaker">Ann &lt;the host&gt;:</span> Hi &lt;b&gt;there&lt;/b&gt;</p>');
    expect(html).not.toMatch(/<b>|<script|src=|href=/);
    expect(text(renderExport('html', t, { timestamps: false }))).not.toContain('class="time"');
  });
});

describe('renderExport', () => {
  it('rejects a document without content and a bad timecode offset with a FormatError', () => {
    expect(() => renderExport('srt', { filename: 'x', timecode_offset: '00:00:00:00' })).toThrow(FormatError);
    expect(() => renderExport('txt', { timecode_offset: '00:61:00:00', document: { document_type: 'transcript', metadata: {}, content: t } })).toThrow(/minutes or seconds/);
  });

  it('takes the Document resource as the service returns it', () => {
    const d: Document = {
      id: 'd1', filename: 'Talk.mp4', type: 'document', language: 'en', created: '2026-01-01T00:00:00Z', last_modified: '2026-01-01T00:00:00Z',
      finished: false, timecode_offset: '00:00:01:00', content_type: 'application/json', size_bytes: 1,
      document: { document_type: 'transcript', metadata: { frame_rate: 25 }, content: t },
    };
    expect(text(renderExport('srt', d, { speakers: 'none' }))).toMatch(/^1\n00:01:02,500 --> /);
  });

  it('prefixes a speaker name where a turn starts, not on every cue', () => {
    const c: CaptionContent = {
      kind: 'caption', version: 1, speakers: [{ id: 'a', name: 'Ann' }, { id: 'b', name: 'Bob' }],
      cues: [['a', 'one'], ['a', 'two'], ['b', 'three'], [null, 'four'], ['a', 'five']].map(([sp, line], i) => ({ id: `c${i}`, start_ms: i * 1000, end_ms: i * 1000 + 900, lines: [line!], speaker_id: sp })),
    };
    const lines = (f: 'srt' | 'sbv') => text(renderExport(f, c)).split('\n').filter((l) => /^[A-Za-z]/.test(l));
    for (const f of ['srt', 'sbv'] as const) expect(lines(f)).toEqual(['Ann: one', 'two', 'Bob: three', 'four', 'Ann: five']);
    expect(text(renderExport('vtt', c))).toContain('<v Ann>two');
  });

  it('names a file extension and media type for every format', () => {
    expect(Object.keys(FORMAT_FILES).sort()).toEqual(['docx', 'html', 'pdf', 'sbv', 'srt', 'stl', 'ttml', 'txt', 'vtt']);
  });

  it('makes DOCX (a zip) and PDF bytes asynchronously', async () => {
    const docx = await renderExport('docx', t);
    expect([docx[0], docx[1]]).toEqual([0x50, 0x4b]);
    const pdf = await renderExport('pdf', t);
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
  });
});
