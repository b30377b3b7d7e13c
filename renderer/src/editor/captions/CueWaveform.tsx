import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Cue } from '../../../../common/transcript';
import { useChannel } from '../../lib/useChannel';
import { preciseClock } from '../../lib/format';
import { clampEdge, edgeAt, type Drag } from './waveformGeometry';
import './waveform.css';

const ZOOMS = [10, 25, 50, 100, 200, 400]; // pixels a second
const FROM = { service: 'Waveform from the service', local: 'Waveform of the file on this computer', cache: 'Waveform of the kept copy' };

function decode(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

interface Props {
  sessionId: string;
  cues: Cue[];
  currentCue: number;
  nowMs: number;
  onSeek: (ms: number) => void;
  onRetime: (cueId: string, start: number, end: number) => void;
  /** A finished document (FinishedLock): clicks seek, no edge can be grabbed. */
  readOnly?: boolean;
}

/**
 * The session's waveform under the cues: drawn on a canvas a screen wide over a scrolling strip as
 * long as the media, cues as regions, the playhead as a line that the view follows while playing.
 * Click to seek; drag a cue's edge to retime it (one undoable edit when let go), unless read-only.
 */
export const CueWaveform = memo(function CueWaveform({ sessionId, cues, currentCue, nowMs, onSeek, onRetime, readOnly = false }: Props) {
  const answer = useChannel('media.peaks', { sessionId });
  const got = answer.value;
  const peaks = useMemo(() => (got?.peaks ? decode(got.peaks) : null), [got]);
  const perSecond = got?.peaks ? got.perSecond : 100;
  const [zoom, setZoom] = useState(3);
  const pps = ZOOMS[zoom];
  const scroller = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  // The strip's CSS sets the height (lower on short windows); the canvas draws at it.
  const [height, setHeight] = useState(96);
  const [scrollX, setScrollX] = useState(0);
  const [drag, setDrag] = useState<Drag | null>(null);
  const durationMs = Math.max(peaks ? (peaks.length / perSecond) * 1000 : 0, cues.at(-1)?.end_ms ?? 0);
  const total = Math.ceil((durationMs / 1000) * pps) + 1;

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const strip = el.firstElementChild as HTMLElement;
    const measure = () => {
      setWidth(el.clientWidth);
      setHeight(strip.clientHeight || 96);
    };
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    measure();
    return () => ro.disconnect();
  }, [peaks]);

  // Follow playback a page at a time (a still picture reads better than one sliding under the eye).
  useEffect(() => {
    const el = scroller.current;
    if (!el || drag || width === 0) return;
    const x = (nowMs / 1000) * pps;
    if (x < el.scrollLeft || x > el.scrollLeft + width - 20) el.scrollLeft = Math.max(0, x - width * 0.1);
  }, [nowMs, pps, width, drag]);

  // Zoom about the playhead.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && width) el.scrollLeft = Math.max(0, (nowMs / 1000) * pps - width / 2);
  }, [pps]);

  useEffect(() => {
    const c = canvas.current;
    if (!c || width === 0) return;
    const dpr = 1; // whole device pixels keep the bars crisp and the colours exact
    c.width = width * dpr;
    c.height = height;
    const g = c.getContext('2d');
    if (!g) return;
    const style = getComputedStyle(c);
    const x0 = scrollX;
    g.clearRect(0, 0, width, height);
    const msAt = (x: number) => ((x0 + x) / pps) * 1000;
    const xAt = (ms: number) => Math.round((ms / 1000) * pps - x0);
    // Cue regions under the wave.
    const from = msAt(0);
    const to = msAt(width);
    g.font = '11px system-ui, sans-serif';
    cues.forEach((q, i) => {
      let { start_ms: s, end_ms: e } = q;
      if (drag?.cueId === q.id) [s, e] = drag.edge === 'start' ? [drag.ms, e] : [s, drag.ms];
      if (e < from || s > to) return;
      const a = xAt(s);
      const b = xAt(e);
      g.fillStyle = i === currentCue ? style.getPropertyValue('--wave-current') : style.getPropertyValue('--wave-region');
      g.fillRect(a, 0, Math.max(1, b - a), height);
      g.fillStyle = style.getPropertyValue('--wave-edge');
      g.fillRect(a, 0, 2, height);
      g.fillRect(b - 2, 0, 2, height);
      g.fillStyle = style.getPropertyValue('--wave-label');
      g.fillText(`${i + 1}`, a + 5, 12);
    });
    // The wave: each column the loudest peak it covers, mirrored about the middle.
    if (peaks) {
      g.fillStyle = style.color;
      const mid = height / 2;
      for (let x = 0; x < width; x++) {
        const a = Math.floor((msAt(x) / 1000) * perSecond);
        const b = Math.max(a + 1, Math.floor((msAt(x + 1) / 1000) * perSecond));
        let v = 0;
        for (let k = Math.max(0, a); k < b && k < peaks.length; k++) v = Math.max(v, peaks[k]);
        const h = Math.max(1, Math.round((v / 255) * (mid - 14)));
        g.fillRect(x, mid - h, 1, 2 * h);
      }
    }
    g.fillStyle = style.getPropertyValue('--wave-playhead');
    g.fillRect(xAt(nowMs), 0, 2, height);
  }, [peaks, perSecond, cues, currentCue, nowMs, pps, width, height, scrollX, drag]);

  const msOf = (e: React.PointerEvent) => {
    const r = e.currentTarget.getBoundingClientRect();
    return Math.max(0, Math.round(((scrollX + e.clientX - r.left) / pps) * 1000));
  };
  const grabTolerance = (6 / pps) * 1000;
  const grab = (ms: number) => (readOnly ? null : edgeAt(cues, ms, grabTolerance));

  return (
    <div className="cue-waveform" role="group" aria-label="Waveform">
      <div className="wave-tools">
        <span className={(got && got.peaks === null) || answer.error ? 'muted small wave-note' : 'muted small wave-hint'} role="status">
          {got ? (got.peaks !== null ? `${FROM[got.from]} · ${readOnly ? 'click to go there' : "drag a cue's edge to retime it, click to go there"}` : got.reason) : answer.loading ? 'Reading the waveform…' : (answer.error ?? '')}
        </span>
        <span className="wave-zoom">
          <button type="button" className="icon" aria-label="Zoom out" disabled={zoom === 0} onClick={() => setZoom(zoom - 1)}>−</button>
          <span className="small muted" aria-label="Zoom">{pps} px/s</span>
          <button type="button" className="icon" aria-label="Zoom in" disabled={zoom === ZOOMS.length - 1} onClick={() => setZoom(zoom + 1)}>+</button>
        </span>
      </div>
      <div className="wave-scroll" ref={scroller} onScroll={(e) => setScrollX(e.currentTarget.scrollLeft)} data-pps={pps}>
        <div className="wave-strip" style={{ width: total }}>
          <canvas
            ref={canvas}
            className="wave"
            data-peaks={peaks ? peaks.length : 0}
            data-from={got?.peaks ? got.from : ''}
            role="img"
            aria-label={`Waveform with the cues, ${preciseClock(nowMs)} at the playhead`}
            style={{ left: scrollX, width, height, cursor: drag ? 'ew-resize' : undefined }}
            onPointerDown={(e) => {
              const ms = msOf(e);
              const hit = grab(ms);
              if (hit) {
                e.currentTarget.setPointerCapture(e.pointerId);
                setDrag({ ...hit, ms });
              } else onSeek(ms);
            }}
            onPointerMove={(e) => {
              const ms = msOf(e);
              if (drag) setDrag({ ...drag, ms: clampEdge(cues, drag, ms) });
              else e.currentTarget.style.cursor = grab(ms) ? 'ew-resize' : 'pointer';
            }}
            onPointerUp={() => {
              if (!drag) return;
              const q = cues.find((c) => c.id === drag.cueId);
              setDrag(null);
              if (!q) return;
              const [s, e] = drag.edge === 'start' ? [drag.ms, q.end_ms] : [q.start_ms, drag.ms];
              if (s !== q.start_ms || e !== q.end_ms) onRetime(q.id, s, e);
            }}
            onPointerCancel={() => setDrag(null)}
          />
        </div>
      </div>
    </div>
  );
});
