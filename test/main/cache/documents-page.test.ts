/**
 * A documents page checked by the scanner (main/cache/documents-page.ts) must give exactly what
 * the full check gives (JSON.parse and zod over the page, then prepareDocumentsPage): the same rows
 * for a page it takes, and the same MalformedResponseError, naming the route and the field, for a
 * page it refuses; and it must take the plain form a service writes, or it saves nothing.
 */
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkJsonAnswer } from '../../../main/api/check';
import { MalformedResponseError } from '../../../main/api/errors';
import { Cache } from '../../../main/cache';
import { checkDocumentsPage, scanPlainBodies } from '../../../main/cache/documents-page';
import { prepareDocumentsPage, preparePullPage, type PreparedDocument } from '../../../main/cache/pull-apply';

const enc = new TextEncoder();

type Words = { text: unknown; start_ms: unknown; end_ms: unknown; confidence: unknown; [k: string]: unknown }[];
type Body = { document_type: string; metadata: Record<string, unknown>; content: Record<string, unknown> & { segments?: { words: Words; [k: string]: unknown }[] } };

function body(segments: number, words: number, text = (s: number, w: number) => `w${s}x${w}`): Body {
  return {
    document_type: 'transcript',
    metadata: { engine: 'test', diarization: { requested: true, available: false } },
    content: {
      kind: 'transcript', version: 1, speakers: [{ id: 'S1', name: 'Ann' }],
      segments: Array.from({ length: segments }, (_, s) => ({
        id: `s${s}`, speaker_id: s % 2 ? 'S1' : null, start_ms: s * 10_000, end_ms: s * 10_000 + 9_000,
        words: Array.from({ length: words }, (_, w) => ({ text: text(s, w), start_ms: s * 10_000 + w * 300, end_ms: s * 10_000 + w * 300 + 250, confidence: w % 3 ? 0.875 : 1 })),
      })),
    },
  };
}

function doc(id: string, document?: unknown): Record<string, unknown> {
  return {
    id, filename: `${id}.json`, type: 'document', language: 'en', created: '2026-01-01T00:00:00.000Z', last_modified: '2026-01-02T00:00:00.000Z',
    finished: false, timecode_offset: '00:00:00:00', content_type: 'application/json', size_bytes: 10, session_id: 'sess', ...(document === undefined ? {} : { document }),
  };
}

const page = (docs: Record<string, unknown>[]) => ({ count: docs.length, total_results: docs.length + 1, result: docs });

/** The full check's answer: the rows, or the error it throws. */
function fullCheck(bytes: Uint8Array): { docs: PreparedDocument[]; count: number; total: number } | { error: string } {
  try {
    const { data, text } = checkJsonAnswer('documents.list', 200, bytes);
    const p = data as { result: never[]; total_results: number };
    return { docs: prepareDocumentsPage(p.result, 'sess', { bytes, text }), count: p.result.length, total: p.total_results };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** A body handed over as UTF-8 bytes is stored as the text they spell (UPSERT_DOCUMENT casts it): compared as that text. */
const asText = (d: PreparedDocument): PreparedDocument => (d.body instanceof Uint8Array ? { ...d, body: new TextDecoder('utf-8', { fatal: true }).decode(d.body) } : d);

function scannerCheck(bytes: Uint8Array): ReturnType<typeof fullCheck> {
  try {
    const page = checkDocumentsPage(200, bytes, 'sess');
    return { ...page, docs: page.docs.map(asText) };
  } catch (err) {
    expect(err).toBeInstanceOf(MalformedResponseError);
    return { error: (err as Error).message };
  }
}

const bytesOf = (value: unknown, indent = 0) => enc.encode(JSON.stringify(value, null, indent));
const scanned = (bytes: Uint8Array) => scanPlainBodies(bytes) !== null;

describe('checkDocumentsPage', () => {
  it('takes a plain page itself and makes the rows the full check makes, ASCII or not, however spaced', () => {
    const pages = [
      page([doc('a', body(30, 20)), doc('b'), doc('c', body(1, 500))]),
      page([doc('d', body(3, 4, (s, w) => (w === 2 ? 'two words' : `Grüße-東京-🎧-${s}`)))]),
      page([]),
    ];
    for (const p of pages) {
      for (const indent of [0, 2]) {
        const bytes = bytesOf(p, indent);
        expect(scanned(bytes)).toBe(true);
        const ours = scannerCheck(bytes);
        expect(ours).toEqual(fullCheck(bytes));
        expect('docs' in ours && ours.docs.every((d) => d.body === null || JSON.parse(d.body as string))).toBeTruthy();
      }
    }
    // The body is the service's own text, byte for byte, keys in its order.
    const reordered = `{"result":[${JSON.stringify(doc('e')).slice(0, -1)},"document":{"content":{"segments":[{"words":[{"confidence":0.5,"end_ms":9,"start_ms":7,"text":"hi"}],"end_ms":9,"start_ms":7,"speaker_id":null,"id":"x"}],"speakers":[],"version":1,"kind":"transcript"},"metadata":{},"document_type":"transcript"}}],"count":1,"total_results":1}`;
    const bytes = enc.encode(reordered);
    expect(scanned(bytes)).toBe(true);
    const ours = scannerCheck(bytes) as { docs: PreparedDocument[] };
    expect(ours).toEqual(fullCheck(bytes));
    expect(ours.docs[0].body).toBe(reordered.slice(reordered.indexOf('{"content"'), -'],"count":1,"total_results":1}'.length - 1));
    expect(ours.docs[0].segments).toEqual([{ start_ms: 7, starts: '7', text: 'hi' }]);
  });

  it('hands a body over as its bytes, valid UTF-8 only, and the cache stores them as the same text', () => {
    const plain = checkDocumentsPage(200, bytesOf(page([doc('a', body(2, 3, () => 'Grüße'))])), 'sess');
    expect(plain.docs[0].body).toBeInstanceOf(Uint8Array);
    // A bad byte in a word: decoding puts U+FFFD there, and the full check stores that text.
    const good = bytesOf(page([doc('a', body(2, 3, () => 'abc'))]));
    const bad = good.slice();
    bad[new TextDecoder().decode(good).indexOf('abc')] = 0xff;
    expect(scanned(bad)).toBe(false);
    const ours = checkDocumentsPage(200, bad, 'sess');
    expect(typeof ours.docs[0].body).toBe('string');
    expect(ours.docs[0].body).toContain('\ufffdbc');
    expect(ours).toEqual(fullCheck(bad));

    const dir = mkdtempSync(join(tmpdir(), 's2t-documents-page-'));
    try {
      const cache = Cache.open(join(dir, 'cache.db'));
      const account = cache.setCurrentAccount('http://service', { email: 'a@example.com', first_name: '', last_name: '', newsletter: false, roles: [], two_factor_active: false, is_active: true, id: 1, identity_provider: 'local' });
      const session = { session_id: 'sess', duration: 1, error: null, filename: 'f', media_type: 'audio/wav', media_url: '', language: 'en', last_modified: '2026-01-02T00:00:00.000Z' };
      const prepared = preparePullPage([session as never], new Map());
      prepared.docs.set('sess', plain.docs);
      cache.applyPreparedPage(account, prepared);
      const row = cache.db.prepare("SELECT typeof(body) AS type, body FROM documents WHERE id = 'a'").get() as { type: string; body: string };
      expect(row).toEqual({ type: 'text', body: asText(plain.docs[0]).body });
      cache.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves what is not plain to the full check, with the same result', () => {
    const escaped = enc.encode(JSON.stringify(page([doc('a', body(2, 3, () => 'say "hi"'))])));
    const exponent = enc.encode(JSON.stringify(page([doc('a', body(2, 3))])).replace('"start_ms":300', '"start_ms":3e2'));
    const extraKey = page([doc('a', body(2, 3))]);
    ((extraKey.result[0].document as Body).content.segments![1].words[0] as Record<string, unknown>).x = 1;
    const caption = page([doc('a', { document_type: 'caption', metadata: {}, content: { kind: 'caption', version: 1, speakers: [], cues: [{ id: 'c', start_ms: 0, end_ms: 5, lines: ['a b'] }] } })]);
    for (const bytes of [escaped, exponent, bytesOf(extraKey), bytesOf(caption)]) {
      expect(scanned(bytes)).toBe(false);
      const ours = scannerCheck(bytes);
      expect('docs' in ours).toBe(true);
      expect(ours).toEqual(fullCheck(bytes));
    }
  });

  it('refuses a malformed body with the error of the full check, naming the route and the field', () => {
    const broken: [string, (b: Body) => void, string][] = [
      ['a time as a string', (b) => (b.content.segments![1].words[2].start_ms = 'soon'), 'result.0.document.content.segments.1.words.2.start_ms'],
      ['a negative time', (b) => (b.content.segments![0].words[1].end_ms = -1), 'result.0.document.content.segments.0.words.1.end_ms'],
      ['a fractional time', (b) => (b.content.segments![0].words[1].start_ms = 1.5), 'result.0.document.content.segments.0.words.1.start_ms'],
      ['an unsafe integer', (b) => (b.content.segments![0].words[0].start_ms = 2 ** 53), 'result.0.document.content.segments.0.words.0.start_ms'],
      ['a confidence above 1', (b) => (b.content.segments![0].words[0].confidence = 1.5), 'result.0.document.content.segments.0.words.0.confidence'],
      ['a word without text', (b) => delete (b.content.segments![0].words[1] as Record<string, unknown>).text, 'result.0.document.content.segments.0.words.1.text'],
      ['a word that is not an object', (b) => ((b.content.segments![0].words as unknown[])[0] = 'w'), 'result.0.document.content.segments.0.words.0'],
      ['an empty segment id', (b) => (b.content.segments![1].id = ''), 'result.0.document.content.segments.1.id'],
      ['a speaker id that is a number', (b) => (b.content.segments![1].speaker_id = 3), 'result.0.document.content.segments.1.speaker_id'],
      ['a segment without words', (b) => delete (b.content.segments![1] as Record<string, unknown>).words, 'result.0.document.content.segments.1.words'],
      ['another version', (b) => (b.content.version = 2), 'result.0.document.content.version'],
      ['an unknown document type', (b) => (b.document_type = 'memo'), 'result.0.document.document_type'],
      ['a speaker without a name', (b) => delete (b.content.speakers as Record<string, unknown>[])[0].name, 'result.0.document.content.speakers.0.name'],
      ['a bad frame rate', (b) => (b.metadata.frame_rate = -25), 'result.0.document.metadata.frame_rate'],
      ['a summary that is not text', (b) => (b.content.summary = 5), 'result.0.document.content.summary'],
    ];
    for (const [what, breakIt, field] of broken) {
      const b = body(3, 4);
      breakIt(b);
      const bytes = bytesOf(page([doc('a', b)]));
      const ours = scannerCheck(bytes);
      expect(ours, what).toEqual(fullCheck(bytes));
      expect((ours as { error: string }).error, what).toContain(`malformed response from documents.list: field "${field}"`);
    }
    // Outside the bodies: the route's schema refuses it, and the error is the full check's.
    const head = page([doc('a', body(2, 2))]);
    head.result[0].finished = 'no';
    expect(scannerCheck(bytesOf(head))).toEqual(fullCheck(bytesOf(head)));
    expect((scannerCheck(bytesOf(head)) as { error: string }).error).toContain('field "result.0.finished"');
    // Not JSON, in a body or around it.
    const good = JSON.stringify(page([doc('a', body(2, 2))]));
    for (const text of [good.replace('"start_ms":300', '"start_ms":03'), good.replace('"confidence":1', '"confidence":1.'), good.slice(0, -1), good.replace('"count"', 'count'), `${good} x`]) {
      expect(scannerCheck(enc.encode(text))).toEqual({ error: 'malformed response from documents.list: body is not JSON' });
    }
  });

  it('property: any page, well formed or not, gets the full check’s rows or its error', () => {
    const word = fc.record(
      {
        text: fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('a b', 'x\ny', 'ü', '\u00a0'), fc.integer()),
        start_ms: fc.oneof(fc.nat(), fc.constantFrom(-1, 1.5, 2 ** 53, '1', null)),
        end_ms: fc.nat(),
        confidence: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 1, -0, 1.25, 1e-7)),
        extra: fc.constant(1),
      },
      { requiredKeys: ['start_ms', 'end_ms'] },
    );
    const segment = fc.record({ id: fc.string({ maxLength: 3 }), speaker_id: fc.oneof(fc.constant(null), fc.string({ maxLength: 2 })), start_ms: fc.nat(), end_ms: fc.nat(), words: fc.array(word, { maxLength: 300 }) }, { requiredKeys: ['id', 'start_ms', 'end_ms', 'words'] });
    const content = fc.record({ kind: fc.constantFrom('transcript', 'transcript', 'caption'), version: fc.constantFrom(1, 1, 2), speakers: fc.constant([]), segments: fc.array(segment, { maxLength: 4 }), summary: fc.string() }, { requiredKeys: ['kind', 'version', 'speakers', 'segments'] });
    const document = fc.record({ document_type: fc.constantFrom('transcript', 'caption'), metadata: fc.constantFrom({}, { engine: 'e' }, { frame_rate: 0 }), content });
    fc.assert(
      fc.property(fc.array(fc.option(document, { nil: undefined }), { maxLength: 3 }), fc.integer({ min: 0, max: 2 }), (bodies, indent) => {
        const bytes = bytesOf(page(bodies.map((b, i) => doc(`d${i}`, b))), indent);
        expect(scannerCheck(bytes)).toEqual(fullCheck(bytes));
      }),
      { numRuns: 400 },
    );
  });
});
