import { useEffect, useState, type FormEvent } from 'react';
import type { ShareLinkRecord } from '../../../common/ipc';
import { call } from '../lib/bridge';
import { useCacheChanged } from '../lib/useChannel';
import { CopyButton } from '../ui/CopyButton';
import { Dialog } from '../ui/Dialog';
import { when } from '../lib/format';

/** A link to the service on this computer opens only here: say so next to it. */
const isLocal = (url: string) => {
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);
  } catch {
    return false;
  }
};

/** Magic links of one document: make one with chosen rights, copy, revoke, or send one by e-mail. */
export function ShareDialog({ documentId, onClose, onStatus }: { documentId: string; onClose: () => void; onStatus: (m: string, isError?: boolean) => void }) {
  const [allowEditing, setAllowEditing] = useState(false);
  const [allowExport, setAllowExport] = useState(true);
  const [links, setLinks] = useState<ShareLinkRecord[]>([]);
  const [pending, setPending] = useState(false);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ text: string; error?: boolean } | null>(null);
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState('');

  const refresh = () => call('documents.shareLinks', { documentId }).then((r) => { setLinks(r.links); setPending(r.pending); }, () => {});
  useEffect(() => void refresh(), [documentId]);
  // A share request goes through the outbox: the link shows when the push brings it.
  useCacheChanged(() => void refresh(), (c) => !c.documents || c.documents.includes(documentId));

  async function attempt(fn: () => Promise<unknown>, done: string) {
    setBusy(true);
    setNote(null);
    try {
      await fn();
      await refresh();
      setNote({ text: done });
    } catch (e) {
      setNote({ text: (e as Error).message, error: true });
      onStatus((e as Error).message, true);
    } finally {
      setBusy(false);
    }
  }

  const share = () => attempt(() => call('documents.mutate', { documentId, mutation: { op: 'share', allowEditing, allowExport } }), 'Link ready.');
  const revoke = (url: string) => attempt(() => call('documents.revokeShare', { documentId, url }), 'Link revoked: it now says “link expired”.');
  const send = (e: FormEvent) => {
    e.preventDefault();
    void attempt(() => call('documents.shareEmail', { documentId, email: email.trim(), message }), `Link sent to ${email.trim()}.`).then(() => setEmail(''));
  };

  return (
    <Dialog title="Share" onClose={onClose} className="share-dialog">
      <div className="dialog-form">
        <label className="check"><input type="checkbox" checked={allowEditing} onChange={(e) => setAllowEditing(e.target.checked)} /> People with the link may edit</label>
        <label className="check"><input type="checkbox" checked={allowExport} onChange={(e) => setAllowExport(e.target.checked)} /> People with the link may download exports</label>
        {pending && <p className="muted small" role="status">The link is made when the service is reached; it shows here then.</p>}
        {links.length > 0 && (
          <ul className="share-links" aria-label="Share links">
            {links.map((l) => (
              <li key={l.url}>
                <span className="share-link-row">
                  <input readOnly value={l.url} aria-label="Link" onFocus={(e) => e.currentTarget.select()} />
                  <CopyButton text={l.url} />
                  <button type="button" className="danger" disabled={busy} onClick={() => void revoke(l.url)}>Revoke</button>
                </span>
                <span className="muted small">{l.allowEditing ? 'may edit' : 'read only'} · {l.allowExport ? 'may export' : 'no export'} · until {when(l.expires)}</span>
                {isLocal(l.url) && <span className="muted small">This link points to the service on this computer: it opens only here.</span>}
              </li>
            ))}
          </ul>
        )}
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>Close</button>
          <button type="button" className="primary" onClick={() => void share()} disabled={busy}>{busy ? 'Asking…' : 'Make link'}</button>
        </div>
        <form className="share-email" onSubmit={send} aria-label="Send a link by e-mail">
          <label>
            Send a read-only link by e-mail
            <input type="email" required value={email} placeholder="name@example.com" onChange={(e) => setEmail(e.target.value)} />
          </label>
          <textarea aria-label="Message" rows={2} placeholder="A note to go with it (optional)" value={message} onChange={(e) => setMessage(e.target.value)} />
          <button type="submit" disabled={busy || !email.trim()}>Send</button>
        </form>
        {note && <p className={note.error ? 'error' : 'ok small'} role={note.error ? 'alert' : 'status'}>{note.text}</p>}
      </div>
    </Dialog>
  );
}
