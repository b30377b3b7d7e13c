import { useEffect, useState } from 'react';
import { clock, when } from '../lib/format';
import { useChannel } from '../lib/useChannel';
import './sessions.css';

const PAGE = 100;
const anyChange = () => true;

export function SessionList({ selected, onSelect }: { selected: string | null; onSelect: (id: string) => void }) {
  const [q, setQ] = useState('');
  const [query, setQuery] = useState('');
  const list = useChannel('sessions.list', { offset: 0, limit: PAGE, q: query || undefined }, anyChange);

  useEffect(() => {
    const t = setTimeout(() => setQuery(q.trim()), 200);
    return () => clearTimeout(t);
  }, [q]);

  const items = list.value?.items ?? [];
  return (
    <div className="sessions">
      <input className="search" type="search" placeholder="Filter by name, language or status" value={q} onChange={(e) => setQ(e.target.value)} aria-label="Filter sessions" />
      <div className="count muted">{list.value ? `${list.value.total} session${list.value.total === 1 ? '' : 's'}` : ''}</div>
      {list.error && <p className="error" role="alert">{list.error}</p>}
      <ul role="list" aria-label="Sessions">
        {items.map((s) => (
          <li key={s.session_id}>
            <button className={`session ${selected === s.session_id ? 'selected' : ''}`} onClick={() => onSelect(s.session_id)}>
              <span className="name">{s.filename || '(untitled)'}</span>
              <span className="meta">
                <span className={`status ${s.status ?? ''}`}>{s.status ?? 'unknown'}</span>
                <span>{s.language}</span>
                {s.duration > 0 && <span>{clock(s.duration * 1000)}</span>}
                <span>{when(s.date_upload ?? s.last_modified)}</span>
              </span>
              {(s.pending_edits > 0 || s.deleted_on_server) && (
                <span className="flags">
                  {s.pending_edits > 0 && <span className="badge">{s.pending_edits} unsent</span>}
                  {s.deleted_on_server && <span className="badge warn">deleted on service</span>}
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
      {!list.loading && items.length === 0 && <p className="muted empty-list">{query ? 'No session matches.' : 'No sessions yet. Upload media or drop it into a watched folder.'}</p>}
    </div>
  );
}
