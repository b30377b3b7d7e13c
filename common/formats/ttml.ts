/**
 * TTML in the IMSC 1.1 Text Profile (ttp:contentProfiles), which is also IMSC 1.0.1 Text Profile
 * (ttp:profile, for TTML1 processors): media time base, clock times, one bottom region, speakers as
 * ttm:agent. Colours use TTML <color> syntax (#rrggbbaa), not CSS: players parse them with TTML
 * rules (imscJS refuses a CSS alpha such as rgba(0,0,0,0.8)). The background is on a span around
 * the text (tts:backgroundColor is not inherited): on body or p it would paint a band as wide as
 * the region behind the shortest caption. A cue whose text is right-to-left has tts:direction="rtl".
 * The reader takes any TTML it can time: clock, offset and frame times, nested body/div/p/span
 * timing, ttp:frameRate/tickRate, <br/> line breaks.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { CaptionContent } from '../transcript/model';
import { formatClock, nominalFrameRate } from '../transcript/timecode';
import { CaptionBuilder } from './blocks';
import { FormatError } from './errors';
import { speakerPrefix, type ExportSource, type OutCue, type SpeakerStyle } from './source';
import { cleanLine, decodeUtf8, escapeXml, isRtlParagraph } from './text';

export const IMSC_1_1_TEXT = 'http://www.w3.org/ns/ttml/profile/imsc1.1/text';
export const IMSC_1_0_1_TEXT = 'http://www.w3.org/ns/ttml/profile/imsc1/text';
/** Black at 80% opacity (0xcc = 204 of 255), in TTML's #rrggbbaa, which CSS also reads the same way. */
const CAPTION_BACKGROUND = '#000000cc';

export function writeTtml(cues: OutCue[], src: ExportSource, speakers: SpeakerStyle = 'prefix'): string {
  const nominal = nominalFrameRate(src.frameRate);
  const multiplier = nominal !== src.frameRate ? ' ttp:frameRateMultiplier="1000 1001"' : '';
  const agents = new Map<string, string>();
  for (const c of cues) if (c.speaker && !agents.has(c.speaker)) agents.set(c.speaker, `spk${agents.size + 1}`);
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" xmlns:tts="http://www.w3.org/ns/ttml#styling"',
    ' xmlns:ttm="http://www.w3.org/ns/ttml#metadata" xmlns:ittp="http://www.w3.org/ns/ttml/profile/imsc1#parameter"',
    ` ttp:contentProfiles="${IMSC_1_1_TEXT}" ttp:profile="${IMSC_1_0_1_TEXT}" ttp:timeBase="media" ttp:frameRate="${nominal}"${multiplier}`,
    ` xml:lang="${escapeXml(src.language)}">\n<head>\n<metadata>\n<ttm:title>${escapeXml(src.title)}</ttm:title>\n`,
  ];
  for (const [name, id] of agents) out.push(`<ttm:agent type="person" xml:id="${id}"><ttm:name type="full">${escapeXml(name)}</ttm:name></ttm:agent>\n`);
  out.push(
    `</metadata>\n<styling>\n<style xml:id="s1" tts:textAlign="center" tts:color="white" tts:fontFamily="proportionalSansSerif" tts:fontSize="100%" tts:lineHeight="125%"/>\n<style xml:id="text" tts:backgroundColor="${CAPTION_BACKGROUND}"/>\n</styling>\n`,
    '<layout>\n<region xml:id="bottom" tts:origin="10% 10%" tts:extent="80% 80%" tts:displayAlign="after"/>\n</layout>\n</head>\n<body region="bottom" style="s1">\n<div>\n',
  );
  for (let i = 0; i < cues.length; i++) {
    const c = cues[i];
    const agent = c.speaker ? ` ttm:agent="${agents.get(c.speaker)}"` : '';
    // The text's direction, not the speaker prefix's, sets the paragraph's (as in HTML and PDF).
    const dir = isRtlParagraph(c.lines.join(' ')) ? ' tts:direction="rtl"' : '';
    const text = escapeXml(speakerPrefix(c, speakers)) + c.lines.map(escapeXml).join('<br/>');
    out.push(`<p xml:id="c${i + 1}" begin="${formatClock(c.start_ms, '.')}" end="${formatClock(c.end_ms, '.')}"${agent}${dir}><span style="text">${text}</span></p>\n`);
  }
  out.push('</div>\n</body>\n</tt>\n');
  return out.join('');
}

type XNode = { [tag: string]: XNode[] | string | Record<string, string> | undefined } & { ':@'?: Record<string, string>; '#text'?: string };

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function decodeXml(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return XML_ENTITIES[e] ?? all;
  });
}

function tagOf(n: XNode): string {
  for (const k of Object.keys(n)) if (k !== ':@') return k;
  return '';
}
function childrenOf(n: XNode): XNode[] {
  const v = n[tagOf(n)];
  return Array.isArray(v) ? v : [];
}
function attrs(n: XNode): Record<string, string> {
  return n[':@'] ?? {};
}

interface Timing {
  frameRate: number;
  subFrameRate: number;
  tickRate: number;
}

/** A TTML time expression in milliseconds (clock-time or offset-time), or null if it is not one. */
export function ttmlTimeMs(expr: string, t: Timing): number | null {
  const s = expr.trim();
  let m = /^(\d{2,}):(\d{2}):(\d{2})(?:\.(\d+))?$/.exec(s);
  if (m) return Math.round(((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3]) + (m[4] ? Number(`0.${m[4]}`) : 0)) * 1000);
  m = /^(\d{2,}):(\d{2}):(\d{2}):(\d{2,})(?:\.(\d+))?$/.exec(s);
  if (m) {
    const frames = Number(m[4]) + (m[5] ? Number(m[5]) / t.subFrameRate : 0);
    return Math.round(((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + (frames * 1000) / t.frameRate);
  }
  m = /^(\d+(?:\.\d+)?)(h|ms|m|s|f|t)$/.exec(s);
  if (!m) return null;
  const v = Number(m[1]);
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, f: 1000 / t.frameRate, t: 1000 / t.tickRate };
  return Math.round(v * unit[m[2]]);
}

export function readTtml(input: Uint8Array | string): CaptionContent {
  const text = decodeUtf8(input, 'ttml');
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new FormatError('ttml', `malformed XML: ${valid.err.msg}`, { line: valid.err.line });
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    removeNSPrefix: true,
    trimValues: false,
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: false,
    captureMetaData: true,
  });
  const META = XMLParser.getMetaDataSymbol();
  /** 1-based line where an element starts, for error messages. */
  const lineOf = (n: XNode): number | undefined => {
    const at = (n as unknown as Record<symbol, { startIndex?: number } | undefined>)[META as symbol]?.startIndex;
    if (at === undefined) return undefined;
    let line = 1;
    for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
    return line;
  };
  const doc = parser.parse(text) as XNode[];
  const tt = doc.find((n) => tagOf(n) === 'tt');
  if (!tt) throw new FormatError('ttml', 'no <tt> root element', { line: 1 });
  const ta = attrs(tt);
  const nominal = Number(ta.frameRate ?? 30);
  const [num, den] = (ta.frameRateMultiplier ?? '1 1').split(/\s+/).map(Number);
  const timing: Timing = { frameRate: (nominal * (num || 1)) / (den || 1), subFrameRate: Number(ta.subFrameRate ?? 1), tickRate: Number(ta.tickRate ?? (ta.frameRate ? nominal : 1)) };
  if (!(timing.frameRate > 0 && timing.tickRate > 0 && timing.subFrameRate > 0)) throw new FormatError('ttml', 'invalid ttp:frameRate, ttp:subFrameRate or ttp:tickRate', { line: lineOf(tt) ?? 1 });

  const agentNames = new Map<string, string>();
  const head = childrenOf(tt).find((n) => tagOf(n) === 'head');
  const collectAgents = (n: XNode) => {
    if (tagOf(n) === 'agent') {
      const name = childrenOf(n).find((c) => tagOf(c) === 'name');
      const label = name ? textOf(name) : '';
      const id = attrs(n).id;
      if (id) agentNames.set(id, cleanLine(label) || id);
    }
    childrenOf(n).forEach(collectAgents);
  };
  if (head) collectAgents(head);

  const out = new CaptionBuilder();
  let pIndex = 0;
  const time = (n: XNode, name: 'begin' | 'end' | 'dur'): number | null => {
    const v = attrs(n)[name];
    if (v === undefined) return null;
    const ms = ttmlTimeMs(v, timing);
    if (ms === null) throw new FormatError('ttml', `<${tagOf(n)}${attrs(n).id ? ` xml:id="${attrs(n).id}"` : ''}> has an invalid ${name} time "${v}"`, { line: lineOf(n) });
    return ms;
  };
  // Timing follows the par time container: a child's begin is relative to its parent's begin.
  const walk = (n: XNode, parentBegin: number, parentEnd: number | null, agent: string | undefined) => {
    const tag = tagOf(n);
    const begin = parentBegin + (time(n, 'begin') ?? 0);
    const endRel = time(n, 'end');
    const dur = time(n, 'dur');
    let end = endRel !== null ? parentBegin + endRel : dur !== null ? begin + dur : parentEnd;
    if (end !== null && parentEnd !== null) end = Math.min(end, parentEnd);
    const myAgent = attrs(n).agent?.split(/\s+/)[0] ?? agent;
    if (tag === 'p') {
      pIndex++;
      if (end === null) throw new FormatError('ttml', `paragraph ${pIndex}${attrs(n).id ? ` (xml:id="${attrs(n).id}")` : ''} has no end time`, { line: lineOf(n) });
      if (end < begin) throw new FormatError('ttml', `paragraph ${pIndex}${attrs(n).id ? ` (xml:id="${attrs(n).id}")` : ''} ends before it begins`, { line: lineOf(n) });
      const lines = textOf(n).split('\n').map(cleanLine).filter((l) => l.length > 0);
      out.add(begin, end, lines, myAgent ? (agentNames.get(myAgent) ?? myAgent) : null);
      return;
    }
    for (const c of childrenOf(n)) if (tagOf(c) === 'div' || tagOf(c) === 'p' || tagOf(c) === 'body') walk(c, begin, end, myAgent);
  };
  const body = childrenOf(tt).find((n) => tagOf(n) === 'body');
  if (body) walk(body, 0, null, undefined);
  return out.build();
}

/** Text of an element: <br/> is a line break, other whitespace collapses as xml:space="default" says. */
function textOf(n: XNode): string {
  let s = '';
  for (const c of childrenOf(n)) {
    const tag = tagOf(c);
    if (tag === '#text') s += decodeXml(String(c['#text'] ?? '')).replace(/[ \t\r\n]+/g, ' ');
    else if (tag === 'br') s += '\n';
    else if (tag === 'span') s += textOf(c);
  }
  return s;
}
