/**
 * The parts of the reference validators' APIs the format tests use (the packages ship no types).
 * mammoth ships its own.
 */

declare module 'webvtt-parser' {
  /** A node of a cue's text tree: text, a timestamp, or a span (<v>, <c>, <i>, <b>, <u>, <lang>, <ruby>, <rt>). */
  export interface VttNode {
    type: 'text' | 'object' | 'timestamp';
    /** text: the decoded text; object <v> or <lang>: the annotation; timestamp: seconds. */
    value?: string | number;
    name?: string;
    classes?: string[];
    children?: VttNode[];
  }
  export interface VttCue {
    id: string;
    startTime: number;
    endTime: number;
    text: string;
    tree: VttNode;
  }
  export interface VttError {
    message: string;
    line: number;
    col?: number;
  }
  export class WebVTTParser {
    /** entities: the named character references to decode (html-entities.json for all of HTML's). */
    constructor(entities?: Record<string, string>);
    /** mode: undefined for captions and subtitles (cue text checked), 'metadata' or 'chapters'. */
    parse(input: string, mode?: 'metadata' | 'chapters'): { cues: VttCue[]; errors: VttError[]; styles: string[] };
  }
}

declare module 'webvtt-parser/html-entities.json' {
  const entities: Record<string, string>;
  export default entities;
}

/** imscJS's error handler: each method gets a message; returning true stops processing. */
interface ImscErrorHandler {
  info(msg: string): boolean | void;
  warn(msg: string): boolean | void;
  error(msg: string): boolean | void;
  fatal(msg: string): boolean | void;
}

/** An element of an ISD (intermediate synchronic document): region, body, div, p, span or br. */
interface ImscIsdElement {
  kind: string;
  id?: string;
  text?: string;
  /** Computed styles by qualified name, e.g. "http://www.w3.org/ns/ttml#styling backgroundColor". */
  styleAttrs: Record<string, unknown>;
  contents?: ImscIsdElement[];
}

/**
 * imscJS's parser and ISD generator, loaded module by module: the package's main also loads its
 * HTML renderer, which reads `navigator` when loaded (absent in Node 20).
 */
declare module 'imsc/src/main/js/doc.js' {
  export interface ImscDocument {
    /** The times (seconds) at which the presentation changes. */
    getMediaTimeEvents(): number[];
  }
  const doc: { fromXML(xml: string, errorHandler?: ImscErrorHandler): ImscDocument | null };
  export default doc;
}

declare module 'imsc/src/main/js/isd.js' {
  import type { ImscDocument } from 'imsc/src/main/js/doc.js';
  const isd: { generateISD(tt: ImscDocument, offset: number, errorHandler?: ImscErrorHandler): { contents: ImscIsdElement[] } };
  export default isd;
}
