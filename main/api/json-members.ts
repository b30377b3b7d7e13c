/**
 * Where one member of each element of a JSON list lies in a response's bytes, for a response that
 * JSON.parse has already accepted. A first sync stores every document body as JSON text: cutting
 * the service's own text out of the page costs one scan of the bytes, where re-serialising the
 * parsed body costs several times that (and the garbage) for each of thousands of documents.
 *
 * Only well-formed JSON is given here, so the scanner tracks strings and nesting and nothing more.
 * Like JSON.parse, a key given twice takes its last value. It reads bytes, not the decoded string:
 * indexing a Uint8Array is several times quicker than charCodeAt over the same text.
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** A byte range [start, end) of the response. */
type Span = [start: number, end: number];

const decoder = new TextDecoder();
const encoder = new TextEncoder();

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

export function skipSpace(b: Uint8Array, i: number): number {
  while (isSpace(b[i])) i++;
  return i;
}

function expect(b: Uint8Array, i: number, byte: number): void {
  if (b[i] !== byte) throw new SyntaxError(`expected '${String.fromCharCode(byte)}' at byte ${i}`);
}

/** `i` is at an opening quote; returns the index after the closing one. */
function skipString(b: Uint8Array, i: number): number {
  for (i++; i < b.length; i++) {
    const c = b[i];
    if (c === QUOTE) return i + 1;
    if (c === BACKSLASH) i++;
  }
  throw new SyntaxError('unterminated string');
}

/** `i` is at the first byte of a value; returns the index after it. */
export function skipValue(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c === QUOTE) return skipString(b, i);
  if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
    let depth = 0;
    for (const n = b.length; i < n; i++) {
      const d = b[i];
      if (d === QUOTE) {
        // Inline rather than skipString: a body holds tens of thousands of short strings.
        for (i++; i < n; i++) {
          const e = b[i];
          if (e === QUOTE) break;
          if (e === BACKSLASH) i++;
        }
      } else if (d === OPEN_OBJECT || d === OPEN_ARRAY) depth++;
      else if ((d === CLOSE_OBJECT || d === CLOSE_ARRAY) && --depth === 0) return i + 1;
    }
    throw new SyntaxError('unterminated value');
  }
  // A number, true, false or null: up to the next delimiter.
  while (i < b.length) {
    const d = b[i];
    if (d === COMMA || d === CLOSE_OBJECT || d === CLOSE_ARRAY || isSpace(d)) break;
    i++;
  }
  return i;
}

/** Is the key string at [start, end) (quotes included) `key`, as JSON.parse would read it? */
export function keyIs(b: Uint8Array, start: number, end: number, key: Uint8Array): boolean {
  const len = end - start - 2;
  if (b.subarray(start + 1, end - 1).includes(BACKSLASH)) return JSON.parse(decoder.decode(b.subarray(start, end))) === decoder.decode(key);
  if (len !== key.length) return false;
  for (let k = 0; k < len; k++) if (b[start + 1 + k] !== key[k]) return false;
  return true;
}

/**
 * Walks the members of the object starting at `i` (its `{`) and returns the index after it.
 * `onMember(keyStart, keyEnd, valueStart)` may read the value itself and return the index after
 * it; otherwise (undefined) the value is skipped.
 */
function eachMember(b: Uint8Array, i: number, onMember: (keyStart: number, keyEnd: number, start: number) => number | undefined): number {
  i = skipSpace(b, i + 1);
  if (b[i] === CLOSE_OBJECT) return i + 1;
  for (;;) {
    expect(b, i, QUOTE);
    const keyEnd = skipString(b, i);
    const colon = skipSpace(b, keyEnd);
    expect(b, colon, COLON);
    const start = skipSpace(b, colon + 1);
    const end = onMember(i, keyEnd, start) ?? skipValue(b, start);
    i = skipSpace(b, end);
    if (b[i] === CLOSE_OBJECT) return i + 1;
    expect(b, i, COMMA);
    i = skipSpace(b, i + 1);
  }
}

/** The `member` span of each element of the array at `i` into `into`; returns the index after the array. */
function readList(b: Uint8Array, i: number, member: Uint8Array, into: (Span | undefined)[]): number {
  into.length = 0;
  i = skipSpace(b, i + 1);
  if (b[i] === CLOSE_ARRAY) return i + 1;
  for (;;) {
    let found: Span | undefined;
    if (b[i] === OPEN_OBJECT) {
      i = eachMember(b, i, (keyStart, keyEnd, start) => {
        if (!keyIs(b, keyStart, keyEnd, member)) return undefined;
        const end = skipValue(b, start);
        found = [start, end];
        return end;
      });
    } else {
      i = skipValue(b, i);
    }
    into.push(found);
    i = skipSpace(b, i);
    if (b[i] === CLOSE_ARRAY) return i + 1;
    expect(b, i, COMMA);
    i = skipSpace(b, i + 1);
  }
}

/**
 * For `{ ..., [listKey]: [ {...}, ... ] }`: the byte span of each element's `member` (undefined
 * where an element has none or is not an object). Null when the top level has no such list.
 */
function listMemberSpans(bytes: Uint8Array, listKey: string, member: string): (Span | undefined)[] | null {
  const top = skipSpace(bytes, bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0);
  if (bytes[top] !== OPEN_OBJECT) return null;
  const list = encoder.encode(listKey);
  const wanted = encoder.encode(member);
  const out: (Span | undefined)[] = [];
  let isList = false;
  eachMember(bytes, top, (keyStart, keyEnd, start) => {
    if (!keyIs(bytes, keyStart, keyEnd, list)) return undefined;
    isList = bytes[start] === OPEN_ARRAY;
    return isList ? readList(bytes, start, wanted, out) : ((out.length = 0), undefined);
  });
  return isList ? out : null;
}

/**
 * The text of each element's `member` in `{ ..., [listKey]: [...] }`, from an answer's bytes and
 * the `text` they decode to (undefined where an element has none; null without such a list).
 * Where every byte is ASCII the offsets are the same in both, so the text is sliced; otherwise
 * each member's bytes are decoded.
 */
export function listMemberTexts(answer: { bytes: Uint8Array; text: string }, listKey: string, member: string): (string | undefined)[] | null {
  const { bytes, text } = answer;
  const spans = listMemberSpans(bytes, listKey, member);
  const ascii = bytes.length === text.length;
  return spans && spans.map((s) => (s ? (ascii ? text.slice(s[0], s[1]) : decoder.decode(bytes.subarray(s[0], s[1]))) : undefined));
}
