import { useEffect, useId, useRef, useState } from 'react';
import type { ResultOf } from '../../../common/ipc';
import { call } from '../lib/bridge';
import { clock } from '../lib/format';
import './search.css';

type Hit = ResultOf<'search.text'>[number];

/** The snippet's matched words come between « and »; show them marked. */
function Snippet({ text }: { text: string }) {
  const parts = text.split(/(«[^»]*»)/u);
  return (
    <>
      {parts.map((p, i) => (p.startsWith('«') && p.endsWith('»') ? <mark key={i}>{p.slice(1, -1)}</mark> : <span key={i}>{p}</span>))}
    </>
  );
}

/**
 * Searches every cached transcript and caption (search.text, works offline). A hit opens its
 * session and document with the media at the hit's moment.
 */
export function GlobalSearch({ onOpen }: { onOpen: (hit: Hit) => void }) {
  const [q, setQ] = useState('');
  const [hits, setHits] = useState<Hit[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const listId = useId();

  useEffect(() => {
    const query = q.trim();
    if (!query) return setHits(null);
    let live = true;
    const t = setTimeout(() => {
      call('search.text', { q: query, limit: 30 }).then(
        (r) => live && (setHits(r), setError(null)),
        (e: Error) => live && setError(e.message),
      );
    }, 200);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [q]);

  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => !box.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const focusHit = (i: number) => box.current?.querySelectorAll<HTMLElement>('.hit')[i]?.focus();
  const showing = open && q.trim() !== '' && (hits !== null || error !== null);

  return (
    <div
      className="global-search"
      ref={box}
      role="search"
      onKeyDown={(e) => {
        const all = [...(box.current?.querySelectorAll<HTMLElement>('.hit') ?? [])];
        const at = all.indexOf(document.activeElement as HTMLElement);
        if (e.key === 'Escape') {
          setOpen(false);
          box.current?.querySelector('input')?.focus();
        } else if (e.key === 'ArrowDown') focusHit(Math.min(at + 1, all.length - 1));
        else if (e.key === 'ArrowUp') (at <= 0 ? box.current?.querySelector('input') : all[at - 1])?.focus();
        else return;
        e.preventDefault();
      }}
    >
      <input
        type="search"
        aria-label="Search all transcripts"
        // A searchbox may not carry aria-expanded (axe: aria-allowed-attr); aria-controls names the results.
        aria-controls={showing ? listId : undefined}
        placeholder="Search all transcripts"
        value={q}
        onChange={(e) => {
          setQ(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={(e) => {
          if (e.key !== 'Enter' || !hits?.length) return;
          setOpen(false);
          onOpen(hits[0]);
        }}
      />
      {showing && (
        <div className="popover search-results" id={listId} role="region" aria-label="Search results">
          {error && <p className="error small" role="alert">{error}</p>}
          {hits?.length === 0 && <p className="muted small">Nothing found.</p>}
          {hits && hits.length > 0 && (
            <ul>
              {hits.map((h, i) => (
                <li key={`${h.document_id}-${i}`}>
                  <button
                    type="button"
                    className="hit"
                    onClick={() => {
                      setOpen(false);
                      onOpen(h);
                    }}
                  >
                    <span className="hit-head">
                      <span className="hit-name">{h.filename}</span>
                      {h.time_ms !== null && <span className="hit-time">{clock(h.time_ms)}</span>}
                    </span>
                    <span className="hit-snippet"><Snippet text={h.snippet} /></span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
