import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { EmailShareOutcome, ShareLinkRecord } from '../../../common/ipc';
import { call } from '../lib/bridge';
import { useCacheChanged } from '../lib/useChannel';
import { useOnline } from '../lib/useSyncState';
import { CopyButton } from '../ui/CopyButton';
import { Dialog } from '../ui/Dialog';
import { linkKey, ShareLinkList } from './ShareLinkList';

const LINK_READY = 'Link ready.';

/**
 * Magic links of one document: make one with chosen rights, copy, send one by e-mail, see every
 * live link (mailed ones too: the service lists them) and revoke one or all.
 */
export function ShareDialog({ documentId, onClose, onStatus }: { documentId: string; onClose: () => void; onStatus: (m: string, isError?: boolean) => void }) {
  const [allowEditing, setAllowEditing] = useState(false);
  const [allowExport, setAllowExport] = useState(true);
  const [links, setLinks] = useState<ShareLinkRecord[]>([]);
  const [pending, setPending] = useState(false);
  // Whether the list is the service's (every link) or only the links made here (offline).
  const [listed, setListed] = useState(true);
  const [confirmAll, setConfirmAll] = useState(false);
  const [busy, setBusy] = useState(false);
  // Each note shows beside what it is about: the links, or the e-mail form.
  const [note, setNote] = useState<{ text: string; error?: boolean; about: 'links' | 'email' } | null>(null);
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState('');
  // What the last send did: it went, or it became a draft (no mail server), said as such.
  const [mailed, setMailed] = useState<(EmailShareOutcome & { to: string }) | null>(null);

  // A link asked for while its request waits in the outbox: "Link ready." once it is there.
  const awaitingLink = useRef(false);
  const refresh = () =>
    call('documents.shareLinks', { documentId }).then(
      (r) => {
        setLinks(r.links);
        setPending(r.pending);
        setListed(r.listed);
        if (awaitingLink.current && !r.pending) {
          awaitingLink.current = false;
          setNote({ text: LINK_READY, about: 'links' });
        }
        return r.pending;
      },
      () => false,
    );
  // Again when the service comes or goes: the list (and the note that it is only this computer's) follows.
  const online = useOnline();
  useEffect(() => void refresh(), [documentId, online]);
  // A share request goes through the outbox: the link shows when the push brings it.
  useCacheChanged(() => void refresh(), (c) => !c.documents || c.documents.includes(documentId));

  async function attempt<T>(fn: () => Promise<T>, done: string | ((result: T) => string), about: 'links' | 'email') {
    setBusy(true);
    setNote(null);
    try {
      const result = await fn();
      const text = typeof done === 'string' ? done : done(result);
      // A share goes through the outbox: "Link ready." waits for the link (refresh says it).
      awaitingLink.current = text === LINK_READY;
      await refresh();
      if (text !== LINK_READY) setNote({ text, about });
      return true;
    } catch (e) {
      setNote({ text: (e as Error).message, error: true, about });
      onStatus((e as Error).message, true);
      return false;
    } finally {
      setBusy(false);
    }
  }

  // The button that had focus is disabled (Make link) or gone (Revoke): once the work is done, focus
  // goes to the new link's Copy (when the link arrives: it may come later, through the outbox) or to Make link.
  const makeButton = useRef<HTMLButtonElement>(null);
  const rows = useRef(new Map<string, HTMLLIElement>());
  const [focusNext, setFocusNext] = useState<{ to: 'make' } | { to: 'new link'; known: Set<string> } | null>(null);
  useEffect(() => {
    if (!focusNext || busy) return;
    const fresh = focusNext.to === 'new link' ? links.find((l) => l.url && !focusNext.known.has(linkKey(l))) : undefined;
    const active = document.activeElement;
    const lost = active === document.body || active === makeButton.current || active?.tagName === 'DIALOG';
    if (fresh) {
      if (lost) rows.current.get(linkKey(fresh))?.querySelector('button')?.focus();
      setFocusNext(null);
      return;
    }
    if (lost) makeButton.current?.focus();
    if (focusNext.to === 'make') setFocusNext(null);
  }, [focusNext, busy, links]);

  const share = async () => {
    const known = new Set(links.map(linkKey));
    const ok = await attempt(() => call('documents.mutate', { documentId, mutation: { op: 'share', allowEditing, allowExport } }), LINK_READY, 'links');
    setFocusNext(ok ? { to: 'new link', known } : { to: 'make' });
  };
  const revoke = async (l: ShareLinkRecord) => {
    if (!l.id) return;
    const linkId = l.id;
    const whose = l.via === 'email' ? ` ${l.mailedTo ?? 'The recipient'} can no longer open it.` : '';
    await attempt(() => call('documents.revokeShare', { documentId, linkId }), `Link revoked: it now says “link expired”.${whose}`, 'links');
    setFocusNext({ to: 'make' });
  };
  const revokeAll = async () => {
    setConfirmAll(false);
    const said = ({ revoked }: { revoked: number }) => (revoked === 1 ? 'The link was revoked.' : `All ${revoked} links were revoked: each now says “link expired”.`);
    await attempt(() => call('documents.revokeAllShares', { documentId }), said, 'links');
    setFocusNext({ to: 'make' });
  };
  const send = (e: FormEvent) => {
    e.preventDefault();
    const to = email.trim();
    setMailed(null);
    void attempt(async () => setMailed({ to, ...(await call('documents.shareEmail', { documentId, email: to, message })) }), '', 'email').then((ok) => ok && setEmail(''));
  };
  const noteAbout = (about: 'links' | 'email') =>
    note?.about === about && note.text && <p className={note.error ? 'error' : 'ok small'} role={note.error ? 'alert' : 'status'}>{note.text}</p>;

  return (
    <Dialog title="Share" onClose={onClose} className="share-dialog">
      <div className="dialog-form">
        <label className="check"><input type="checkbox" checked={allowEditing} onChange={(e) => setAllowEditing(e.target.checked)} /> People with the link may edit</label>
        <label className="check"><input type="checkbox" checked={allowExport} onChange={(e) => setAllowExport(e.target.checked)} /> People with the link may download exports</label>
        {pending && <p className="muted small" role="status">The link is made when the service is reached; it shows here then.</p>}
        {!listed && <p className="muted small" role="status">The service cannot be reached: these are the links made on this computer. Links sent by e-mail show when it can be reached.</p>}
        {links.length > 0 && <ShareLinkList links={links} busy={busy} onRevoke={(l) => void revoke(l)} rows={rows.current} />}
        {links.length > 1 && !confirmAll && (
          <p className="share-revoke-all">
            <button type="button" className="danger" disabled={busy} onClick={() => setConfirmAll(true)}>Revoke all {links.length} links…</button>
          </p>
        )}
        {confirmAll && (
          <p className="share-revoke-all" role="group" aria-label="Revoke all links">
            <span>Everyone who has one of these {links.length} links loses access, those sent by e-mail included.</span>
            <button type="button" className="danger" disabled={busy} onClick={() => void revokeAll()}>Revoke all</button>
            <button type="button" onClick={() => setConfirmAll(false)}>Keep them</button>
          </p>
        )}
        {noteAbout('links')}
        <form className="share-email" onSubmit={send} aria-label="Send a link by e-mail">
          <label>
            Send a read-only link by e-mail
            <input type="email" required value={email} placeholder="name@example.com" onChange={(e) => setEmail(e.target.value)} />
          </label>
          <textarea aria-label="Message" rows={2} placeholder="A note to go with it (optional)" value={message} onChange={(e) => setMessage(e.target.value)} />
          <button type="submit" disabled={busy || !email.trim()}>Send</button>
          {noteAbout('email')}
          {mailed && note?.about === 'email' && !note.error && <MailOutcome outcome={mailed} />}
        </form>
        {/* Once a link exists, making another is no longer the main thing to do here. */}
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>Close</button>
          <button type="button" ref={makeButton} className={links.length ? undefined : 'primary'} onClick={() => void share()} disabled={busy}>{busy ? 'Asking…' : 'Make link'}</button>
        </div>
      </div>
    </Dialog>
  );
}

/** The e-mail's fate in words: sent, or saved as a draft that nobody received, with what to do instead. */
function MailOutcome({ outcome }: { outcome: EmailShareOutcome & { to: string } }) {
  if (outcome.sent) return <p className="ok small" role="status">Sent to {outcome.to} by e-mail.{outcome.localOnly && ' The link in it opens only on this computer.'}</p>;
  return (
    <div className="mail-draft" role="status">
      <p className="small">
        Not sent: the service has no mail server set up. Saved as a draft e-mail{outcome.draftPath ? <> in <code>{outcome.draftPath}</code></> : null}
        {outcome.localOnly ? '; this link opens only on this computer.' : '.'}
      </p>
      <span className="share-link-row">
        {outcome.linkUrl && <CopyButton text={outcome.linkUrl} label="Copy the link" />}
        {outcome.mailto && <a className="button" href={outcome.mailto} target="_blank" rel="noreferrer">Write it in your mail app</a>}
      </span>
    </div>
  );
}
