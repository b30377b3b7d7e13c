import { useState } from 'react';
import type { DocumentSummary } from '../../../common/ipc';
import { call } from '../lib/bridge';
import { useChannel } from '../lib/useChannel';
import { Dialog } from '../ui/Dialog';

/** Picks documents of the session (in the order ticked) and merges them into a new one. */
export function MergeDialog({ doc, onClose, onStatus }: { doc: DocumentSummary; onClose: () => void; onStatus: (m: string, isError?: boolean) => void }) {
  const detail = useChannel('sessions.get', { sessionId: doc.session_id });
  const [order, setOrder] = useState<string[]>([doc.id]);
  const [name, setName] = useState(`${doc.filename.replace(/\.[^.]+$/, '')} (merged)`);
  const [error, setError] = useState<string | null>(null);
  const docs = (detail.value?.documents ?? []).filter((d) => d.type === doc.type);

  const toggle = (id: string) => setOrder((o) => (o.includes(id) ? o.filter((x) => x !== id) : [...o, id]));

  async function merge() {
    try {
      await call('documents.merge', { documentIds: order, outputFilename: name.trim() });
      onStatus(`Merge of ${order.length} documents queued: “${name.trim()}” appears after the next sync.`);
      onClose();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  return (
    <Dialog title="Merge documents" onClose={onClose}>
      <div className="dialog-form">
        <p className="muted small">Tick the {doc.type === 'caption' ? 'caption documents' : 'transcripts'} to merge, in the order they should follow each other.</p>
        <ul className="merge-list" aria-label="Documents to merge">
          {docs.map((d) => (
            <li key={d.id}>
              <label className="check">
                <input type="checkbox" checked={order.includes(d.id)} onChange={() => toggle(d.id)} />
                {order.includes(d.id) && <span className="order">{order.indexOf(d.id) + 1}.</span>} {d.filename}
              </label>
            </li>
          ))}
        </ul>
        {docs.length < 2 && <p className="muted small">This session has only one document of this kind; make a copy or add one first.</p>}
        <label>
          Name of the merged document
          <input value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        {error && <p className="error" role="alert">{error}</p>}
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>Cancel</button>
          <button type="button" className="primary" disabled={order.length < 2 || !name.trim()} onClick={() => void merge()}>Merge {order.length}</button>
        </div>
      </div>
    </Dialog>
  );
}
