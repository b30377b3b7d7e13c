/**
 * The EBU STL text code tables (Tech 3264, GSI field CCT): 00 = Latin (ISO 6937, accents as a
 * non-spacing prefix byte before the letter), 01 = Latin/Cyrillic (ISO 8859-5), 03 = Latin/Greek
 * (ISO 8859-7). Characters outside the chosen table are written as '?'.
 */
export type CodeTable = '00' | '01' | '03';

/** ISO 6937 prefix bytes for the combining marks (U+0300...) they stand for. */
const DIACRITIC_TO_BYTE: Record<number, number> = {
  0x300: 0xc1, 0x301: 0xc2, 0x302: 0xc3, 0x303: 0xc4, 0x304: 0xc5, 0x306: 0xc6, 0x307: 0xc7,
  0x308: 0xc8, 0x30a: 0xca, 0x327: 0xcb, 0x30b: 0xcd, 0x328: 0xce, 0x30c: 0xcf,
};
const BYTE_TO_DIACRITIC = new Map(Object.entries(DIACRITIC_TO_BYTE).map(([cp, b]) => [b, Number(cp)]));

/** ISO 6937 single-byte characters above 0x9F. */
const ISO6937_HIGH: Record<number, number> = {
  0xa0: 0xa0, 0xa1: 0xa1, 0xa2: 0xa2, 0xa3: 0xa3, 0xa5: 0xa5, 0xa7: 0xa7, 0xa8: 0xa4, 0xa9: 0x2018,
  0xaa: 0x201c, 0xab: 0xab, 0xac: 0x2190, 0xad: 0x2191, 0xae: 0x2192, 0xaf: 0x2193, 0xb0: 0xb0,
  0xb1: 0xb1, 0xb2: 0xb2, 0xb3: 0xb3, 0xb4: 0xd7, 0xb5: 0xb5, 0xb6: 0xb6, 0xb7: 0xb7, 0xb8: 0xf7,
  0xb9: 0x2019, 0xba: 0x201d, 0xbb: 0xbb, 0xbc: 0xbc, 0xbd: 0xbd, 0xbe: 0xbe, 0xbf: 0xbf,
  0xd0: 0x2014, 0xd1: 0xb9, 0xd2: 0xae, 0xd3: 0xa9, 0xd4: 0x2122, 0xd5: 0x266a, 0xd6: 0xac, 0xd7: 0xa6,
  0xdc: 0x215b, 0xdd: 0x215c, 0xde: 0x215d, 0xdf: 0x215e, 0xe0: 0x2126, 0xe1: 0xc6, 0xe2: 0xd0,
  0xe3: 0xaa, 0xe4: 0x126, 0xe6: 0x132, 0xe7: 0x13f, 0xe8: 0x141, 0xe9: 0xd8, 0xea: 0x152, 0xeb: 0xba,
  0xec: 0xde, 0xed: 0x166, 0xee: 0x14a, 0xef: 0x149, 0xf0: 0x138, 0xf1: 0xe6, 0xf2: 0x111, 0xf3: 0xf0,
  0xf4: 0x127, 0xf5: 0x131, 0xf6: 0x133, 0xf7: 0x140, 0xf8: 0x142, 0xf9: 0xf8, 0xfa: 0x153, 0xfb: 0xdf,
  0xfc: 0xfe, 0xfd: 0x167, 0xfe: 0x14b, 0xff: 0xad,
};

function iso8859_5(b: number): number | undefined {
  if (b === 0xa0 || b === 0xad) return b;
  if (b === 0xf0) return 0x2116;
  if (b === 0xfd) return 0xa7;
  if (b >= 0xa1 && b <= 0xff) return b + 0x360; // 0xA1 -> U+0401 ... 0xFF -> U+045F
  return undefined;
}

const GREEK_SPECIAL: Record<number, number> = {
  0xa0: 0xa0, 0xa1: 0x2018, 0xa2: 0x2019, 0xa3: 0xa3, 0xa4: 0x20ac, 0xa5: 0x20af, 0xa6: 0xa6, 0xa7: 0xa7,
  0xa8: 0xa8, 0xa9: 0xa9, 0xaa: 0x37a, 0xab: 0xab, 0xac: 0xac, 0xad: 0xad, 0xaf: 0x2015, 0xb0: 0xb0,
  0xb1: 0xb1, 0xb2: 0xb2, 0xb3: 0xb3, 0xb7: 0xb7, 0xbb: 0xbb, 0xbd: 0xbd,
};
function iso8859_7(b: number): number | undefined {
  if (b in GREEK_SPECIAL) return GREEK_SPECIAL[b];
  if (b === 0xae || b === 0xd2 || b === 0xff) return undefined;
  if (b >= 0xb4 && b <= 0xfe) return b + 0x2d0; // 0xB4 -> U+0384 ... 0xFE -> U+03CE
  return undefined;
}

function buildEncoder(decodeHigh: (b: number) => number | undefined): Map<number, number> {
  const m = new Map<number, number>();
  for (let b = 0xa0; b <= 0xff; b++) {
    const cp = decodeHigh(b);
    if (cp !== undefined) m.set(cp, b);
  }
  return m;
}
const HIGH_DECODERS: Record<CodeTable, (b: number) => number | undefined> = {
  '00': (b) => ISO6937_HIGH[b],
  '01': iso8859_5,
  '03': iso8859_7,
};
const encoders = new Map<CodeTable, Map<number, number>>();
function encoderFor(t: CodeTable): Map<number, number> {
  let e = encoders.get(t);
  if (!e) encoders.set(t, (e = buildEncoder(HIGH_DECODERS[t])));
  return e;
}

/** The table that can write the most of `text`: Cyrillic or Greek when present, else Latin. */
export function chooseCodeTable(text: string): CodeTable {
  if (/[\u0400-\u045F]/u.test(text)) return '01';
  if (/[\u0384-\u03CE]/u.test(text)) return '03';
  return '00';
}

/** Bytes of one line in table `t`. */
export function encodeStlText(s: string, t: CodeTable): number[] {
  const enc = encoderFor(t);
  const out: number[] = [];
  if (/^[\x20-\x7e]*$/.test(s)) {
    for (let i = 0; i < s.length; i++) out.push(s.charCodeAt(i));
    return out;
  }
  for (const ch of s.normalize('NFC')) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x20 && cp < 0x7f) {
      out.push(cp);
      continue;
    }
    const b = enc.get(cp);
    if (b !== undefined) {
      out.push(b);
      continue;
    }
    if (t === '00') {
      const d = ch.normalize('NFD');
      const base = d.codePointAt(0)!;
      const mark = d.length === 2 ? DIACRITIC_TO_BYTE[d.codePointAt(1)!] : undefined;
      if (mark !== undefined && base >= 0x41 && base <= 0x7a) {
        out.push(mark, base);
        continue;
      }
    }
    out.push(0x3f);
  }
  return out;
}

/** Whether `b` is an ISO 6937 non-spacing diacritic (a prefix to the letter it marks) in table `t`. */
export function isDiacritic(b: number, t: CodeTable): boolean {
  return t === '00' && BYTE_TO_DIACRITIC.has(b);
}

/**
 * Text of the character at `i` of a text field (control codes are handled by the caller), or null
 * when the table leaves the byte undefined or a diacritic has no character after it: a reader must
 * say so rather than guess.
 */
export function decodeStlChar(bytes: Uint8Array, i: number, t: CodeTable): { text: string; next: number } | null {
  const b = bytes[i];
  if (b < 0x80) return { text: String.fromCharCode(b), next: i + 1 };
  if (isDiacritic(b, t)) {
    const base = bytes[i + 1];
    if (base === undefined || base < 0x20 || base >= 0x7f) return null;
    return { text: (String.fromCharCode(base) + String.fromCodePoint(BYTE_TO_DIACRITIC.get(b)!)).normalize('NFC'), next: i + 2 };
  }
  const cp = HIGH_DECODERS[t](b);
  return cp === undefined ? null : { text: String.fromCodePoint(cp), next: i + 1 };
}
