import type { MouseEvent } from 'react';
import type { SessionSummary } from '../../../common/ipc';
import { clock, when } from '../lib/format';
import { StatusBadge, type LiveProgress } from './StatusBadge';

/** Every row is this tall, so the virtualizer never measures. */
export const ROW_HEIGHT = 62;

export function SessionRow(props: { session: SessionSummary; open: boolean; picked: boolean; live?: LiveProgress; onClick: (e: MouseEvent) => void; onTogglePick: () => void }) {
  const { session: s, open, picked, live } = props;
  return (
    <div className={`session-row ${open ? 'selected' : ''} ${picked ? 'picked' : ''}`} role="listitem">
      <input type="checkbox" className="pick" aria-label={`Select ${s.filename || 'untitled session'}`} checked={picked} onChange={props.onTogglePick} />
      <button type="button" className="session" onClick={props.onClick} aria-current={open ? 'true' : undefined}>
        <span className="name">{s.filename || '(untitled)'}</span>
        <span className="meta">
          <StatusBadge session={s} live={live} />
          <span>{s.language}</span>
          {s.session_mode && <span>{s.session_mode}</span>}
          {s.duration > 0 && <span>{clock(s.duration * 1000)}</span>}
          <span>{when(s.date_upload ?? s.last_modified)}</span>
          {s.pending_edits > 0 && <span className="badge">{s.pending_edits} unsent</span>}
          {s.deleted_on_server && <span className="badge warn">deleted on service</span>}
          {s.delete_refused && <span className="badge warn" title={s.delete_refused}>delete refused</span>}
        </span>
      </button>
    </div>
  );
}
