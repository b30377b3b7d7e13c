/**
 * Cutting each document's body out of a page's bytes (main/api/json-members.ts) must give exactly
 * the value JSON.parse reads there, whatever whitespace, escapes, key order or characters the
 * service's JSON writer uses.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listMemberTexts } from '../../../main/api/json-members';

const enc = new TextEncoder();

function cut(text: string, list = 'result', member = 'document'): unknown[] | null {
  const bytes = enc.encode(text);
  const texts = listMemberTexts({ bytes, text: new TextDecoder().decode(bytes) }, list, member);
  return texts && texts.map((t) => (t === undefined ? undefined : JSON.parse(t)));
}

/** `value` serialised with the given indent, and every non-ASCII character written as a \u escape when `escape` is set. */
function write(value: unknown, indent: number, escape: boolean): string {
  const text = JSON.stringify(value, null, indent);
  return escape ? text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : text;
}

describe('listMemberTexts', () => {
  it('finds each element’s member wherever it sits, and nothing where there is none', () => {
    const page = { count: 3, result: [{ id: 'a', document: { x: [1, '}"]\\'] }, filename: 'f' }, { id: 'b' }, { document: null, id: 'c' }], total_results: 3 };
    expect(cut(JSON.stringify(page))).toEqual([{ x: [1, '}"]\\'] }, undefined, null]);
  });

  it('reads keys as JSON.parse does: escaped keys match, and a repeated key takes its last value', () => {
    expect(cut('{"res\\u0075lt": [{"docum\\u0065nt": 1}]}')).toEqual([1]);
    expect(cut('{"result": [{"document": 1, "document": {"b": 2}}], "result": [{"document": 3}]}')).toEqual([3]);
    expect(cut('{"result": [{"document": 1, "document": {"b": 2}}]}')).toEqual([{ b: 2 }]);
  });

  it('keeps non-ASCII text whole and takes no object that is not in the list', () => {
    expect(cut('\ufeff{"result":[{"document":{"text":"Grüße, 東京, 🎧"}}]}')).toEqual([{ text: 'Grüße, 東京, 🎧' }]);
    expect(cut('{"result": {"document": 1}}')).toBeNull();
    expect(cut('{"other": [{"document": 1}]}')).toBeNull();
    expect(cut('[{"document": 1}]')).toBeNull();
    expect(cut('{"result": [1, "document", [{"document": 2}], {"document": 3}]}')).toEqual([undefined, undefined, undefined, 3]);
    expect(cut('{"result": []}')).toEqual([]);
  });

  it('property: every cut member parses to the value JSON.parse reads in the page', () => {
    const element = fc.record({ id: fc.string(), document: fc.jsonValue(), filename: fc.string({ unit: 'binary' }) }, { requiredKeys: ['id'] });
    fc.assert(
      fc.property(fc.array(element, { maxLength: 6 }), fc.jsonValue(), fc.integer({ min: 0, max: 3 }), fc.boolean(), (result, extra, indent, escape) => {
        const page = { count: result.length, extra, result, total_results: result.length };
        const text = write(page, indent, escape);
        const parsed = JSON.parse(text) as typeof page;
        expect(cut(text)).toEqual(parsed.result.map((e) => ('document' in e ? e.document : undefined)));
      }),
      { numRuns: 300 },
    );
  });
});
