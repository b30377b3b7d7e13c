/** Text helpers every format shares: UTF-8 both ways, XML/HTML escaping, lines of a text file. */
import { FormatError } from './errors';

// common/ has neither DOM nor node types; both runtimes provide these globals.
declare const TextEncoder: { new (): { encode(s: string): Uint8Array } };
declare const TextDecoder: { new (label?: string, opts?: { fatal?: boolean }): { decode(b: Uint8Array): string } };

const encoder = new TextEncoder();

export function utf8(s: string): Uint8Array {
  return encoder.encode(s);
}

/** Strict UTF-8 decode (a BOM is dropped); invalid bytes are an error, never replacement characters. */
export function decodeUtf8(input: Uint8Array | string, format: string): string {
  if (typeof input === 'string') return input.replace(/^\uFEFF/, '');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(input).replace(/^\uFEFF/, '');
  } catch {
    let i = 0;
    // Find the first invalid byte, so the error can name it.
    for (let lo = 0, hi = input.length; lo < hi; ) {
      const mid = (lo + hi) >> 1;
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(input.subarray(0, mid));
        lo = mid + 1;
        i = mid;
      } catch {
        hi = mid;
      }
    }
    throw new FormatError(format, 'the file is not valid UTF-8', { byteOffset: i });
  }
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escape for XML/HTML text and attribute values; also drops characters XML 1.0 forbids. */
export function escapeXml(s: string): string {
   
  return s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '').replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);
}

export const RTL_LETTER = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
export const LTR_LETTER = /(?![\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}])[\p{L}\p{N}]/u;

/** A paragraph is right-to-left when its first strong letter is (the Unicode bidi rule P2). */
export function isRtlParagraph(text: string): boolean {
  for (const ch of text) {
    if (RTL_LETTER.test(ch)) return true;
    if (LTR_LETTER.test(ch)) return false;
  }
  return false;
}

/** The lines of a text file, whatever its line endings. */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** One line of cue text as the formats carry it: single spaces, no control characters, trimmed. */
export function cleanLine(s: string): string {
  return (
    s
       
      .replace(/[\u0000-\u001F\u007F-\u009F]/g, ' ')
      // Noncharacters and unpaired surrogates: no format can carry them (XML forbids them).
      .replace(/[\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
      .replace(/\s+/gu, ' ')
      .trim()
  );
}
