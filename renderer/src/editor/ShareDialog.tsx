import { useEffect, useState } from 'react';
import type { ShareLinkRecord } from '../../../common/ipc';
import { call } from '../lib/bridge';
import { Dialog } from '../ui/Dialog';
import { when } from '../lib/format';

/** Asks the service for a magic link with the chosen rights, and lists the links already made. */
export function ShareDialog({ documentId, onClose, onStatus }: { documentId: string; onClose: () => void; onStatus: (m: string, isError?: boolean) => void }) {
  const [allowEditing, setAllowEditing] = useState(false);
  const [allowExport, setAllowExport] = useState(true);
  const [links, setLinks] = useState<ShareLinkRecord[]>([]);
  const [pending, setPending] = useState(false);
  const [busy, setBusy] = useState(false);

  const refresh = () => call('documents.shareLinks', { documentId }).then((r) => { setLinks(r.links); setPending(r.pending); }, () => {});
  useEffect(() => void refresh(), [documentId]);

  async function share() {
    setBusy(true);
    try {
      await call('documents.mutate', { documentId, mutation: { op: 'share', allowEditing, allowExport } });
      await refresh();
    } catch (e) {
      onStatus((e as Error).message, true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title="Share link" onClose={onClose}>
      <div className="dialog-form">
        <label className="check"><input type="checkbox" checked={allowEditing} onChange={(e) => setAllowEditing(e.target.checked)} /> People with the link may edit</label>
        <label className="check"><input type="checkbox" checked={allowExport} onChange={(e) => setAllowExport(e.target.checked)} /> People with the link may download exports</label>
        {pending && <p className="muted small" role="status">The link is made when the service is reached; it shows here then.</p>}
        {links.length > 0 && (
          <ul className="share-links" aria-label="Share links">
            {links.map((l) => (
              <li key={l.url}>
                <input readOnly value={l.url} aria-label="Link" onFocus={(e) => e.currentTarget.select()} />
                <span className="muted small">{l.allowEditing ? 'may edit' : 'read only'} · {l.allowExport ? 'may export' : 'no export'} · until {when(l.expires)}</span>
              </li>
            ))}
          </ul>
        )}
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>Close</button>
          <button type="button" className="primary" onClick={share} disabled={busy}>{busy ? 'Asking…' : 'Make link'}</button>
        </div>
      </div>
    </Dialog>
  );
}
