import { SessionMode, SessionStatus } from '../../../common/api';
import type { SessionListView } from '../../../common/ipc';
import { useChannel } from '../lib/useChannel';
import { MODE_LABEL } from './modes';
import { STATUS_LABEL } from './StatusBadge';

const SORTS: { id: SessionListView['sort']; label: string }[] = [
  { id: 'date', label: 'Date' },
  { id: 'name', label: 'Name' },
  { id: 'duration', label: 'Duration' },
  { id: 'status', label: 'Status' },
];

/** Search, sort and the three filters (status, language, mode). */
export function ListToolbar({ view, onSearch, onChange }: { view: SessionListView; onSearch: (q: string) => void; onChange: (patch: Partial<SessionListView>) => void }) {
  const facets = useChannel('sessions.facets', {}, (c) => !!c.sessions);
  const languages = facets.value?.languages ?? [];
  return (
    <div className="list-toolbar">
      <input className="search" type="search" placeholder="Search name, language or status" value={view.q} onChange={(e) => onSearch(e.target.value)} aria-label="Search sessions" />
      <div className="list-controls">
        <label>
          <span className="visually-hidden">Sort by</span>
          <select aria-label="Sort by" value={view.sort} onChange={(e) => onChange({ sort: e.target.value as SessionListView['sort'] })}>
            {SORTS.map((s) => (
              <option key={s.id} value={s.id}>{s.label}</option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="icon direction"
          aria-label={view.direction === 'asc' ? 'Ascending; switch to descending' : 'Descending; switch to ascending'}
          title={view.direction === 'asc' ? 'Ascending' : 'Descending'}
          onClick={() => onChange({ direction: view.direction === 'asc' ? 'desc' : 'asc' })}
        >
          <span aria-hidden="true">{view.direction === 'asc' ? '↑' : '↓'}</span>
        </button>
        <select aria-label="Status filter" value={view.status[0] ?? ''} onChange={(e) => onChange({ status: e.target.value ? [e.target.value as SessionListView['status'][number]] : [] })}>
          <option value="">Any status</option>
          {SessionStatus.options.map((s) => (
            <option key={s} value={s}>{STATUS_LABEL(s)}</option>
          ))}
        </select>
        <select aria-label="Language filter" value={view.language ?? ''} onChange={(e) => onChange({ language: e.target.value || null })}>
          <option value="">Any language</option>
          {[...new Set([...languages, ...(view.language ? [view.language] : [])])].map((l) => (
            <option key={l} value={l}>{l}</option>
          ))}
        </select>
        <select aria-label="Mode filter" value={view.mode ?? ''} onChange={(e) => onChange({ mode: (e.target.value || null) as SessionListView['mode'] })}>
          <option value="">Any mode</option>
          {SessionMode.options.map((m) => (
            <option key={m} value={m}>{MODE_LABEL[m]}</option>
          ))}
        </select>
      </div>
    </div>
  );
}
