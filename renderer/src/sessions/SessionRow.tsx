import { memo, type MouseEvent } from 'react';
import type { SessionSummary } from '../../../common/ipc';
import { clock, day, when } from '../lib/format';
import { MODE_LABEL } from './modes';
import { StatusBadge, type LiveProgress } from './StatusBadge';

/** Every row is this tall, so the virtualizer never measures. */
export const ROW_HEIGHT = 62;

interface RowProps {
  session: SessionSummary;
  index: number;
  open: boolean;
  picked: boolean;
  live?: LiveProgress;
  onClick: (e: MouseEvent, index: number, id: string) => void;
  onTogglePick: (index: number, id: string) => void;
}

/** Memoized: while scrolling, rows already drawn are not drawn again (the callbacks are stable). */
export const SessionRow = memo(function SessionRow(props: RowProps) {
  const { session: s, index, open, picked, live } = props;
  return (
    <div className={`session-row ${open ? 'selected' : ''} ${picked ? 'picked' : ''}`} role="listitem">
      <input type="checkbox" className="pick" aria-label={`Select ${s.filename || 'untitled session'}`} checked={picked} onChange={() => props.onTogglePick(index, s.session_id)} />
      <button type="button" className="session" onClick={(e) => props.onClick(e, index, s.session_id)} aria-current={open ? 'true' : undefined}>
        {/* The badges sit on the name's line, where the name gives way to them: the second line has no room left. */}
        <span className="name-line">
          <span className="name">{s.filename || '(untitled)'}</span>
          {s.pending_edits > 0 && <span className="badge">{s.pending_edits} unsent</span>}
          {s.deleted_on_server && <span className="badge warn">deleted on service</span>}
          {s.delete_refused && <span className="badge warn" title={s.delete_refused}>delete refused</span>}
        </span>
        <span className="meta">
          <StatusBadge session={s} live={live} />
          <span>{s.language}</span>
          {/* Transcribed is the usual case: only the others are worth the row's room. */}
          {s.session_mode && s.session_mode !== 'decode' && <span className="mode" title={MODE_LABEL[s.session_mode]}>{MODE_LABEL[s.session_mode]}</span>}
          {s.duration > 0 && <span>{clock(s.duration * 1000)}</span>}
          <span title={when(s.date_upload ?? s.last_modified)}>{day(s.date_upload ?? s.last_modified)}</span>
        </span>
      </button>
    </div>
  );
});
