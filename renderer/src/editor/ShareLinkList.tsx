import type { ShareLinkRecord } from '../../../common/ipc';
import { when } from '../lib/format';
import { CopyButton } from '../ui/CopyButton';

/** A link to the service on this computer opens only here: say so next to it. */
const isLocal = (url: string) => {
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);
  } catch {
    return false;
  }
};

/** The key a row is known by (focus goes to a new one): the service's id, else the address. */
export const linkKey = (l: ShareLinkRecord) => l.id ?? l.url ?? l.created;

/** How a link came to be, for a person: made here, or mailed to someone (whose address only they have). */
const origin = (l: ShareLinkRecord) => (l.via === 'email' ? `Sent by e-mail to ${l.mailedTo ?? 'someone'} on ${when(l.created)}` : `Made on ${when(l.created)}`);

/** One document's live links: each with how it was made, its rights and expiry, Copy (when we hold the address) and Revoke. */
export function ShareLinkList({ links, busy, onRevoke, rows }: { links: ShareLinkRecord[]; busy: boolean; onRevoke: (l: ShareLinkRecord) => void; rows: Map<string, HTMLLIElement> }) {
  return (
    <ul className="share-links" aria-label="Share links">
      {links.map((l) => (
        <li key={linkKey(l)} ref={(el) => void (el ? rows.set(linkKey(l), el) : rows.delete(linkKey(l)))}>
          <span className="share-link-row">
            {l.url ? (
              <>
                <input readOnly value={l.url} aria-label="Link" onFocus={(e) => e.currentTarget.select()} />
                <CopyButton text={l.url} />
              </>
            ) : (
              <span className="share-link-mailed">Only {l.mailedTo ?? 'the recipient'} has this link.</span>
            )}
            <button type="button" className="danger" disabled={busy || !l.id} title={l.id ? undefined : 'Revoking needs the service: try again when it can be reached'} onClick={() => onRevoke(l)}>
              Revoke
            </button>
          </span>
          <span className="muted small">
            {origin(l)} · {l.allowEditing ? 'may edit' : 'read only'} · {l.allowExport ? 'may export' : 'no export'} · until {when(l.expires)}
          </span>
          {l.url && isLocal(l.url) && <span className="muted small">This link points to the service on this computer: it opens only here.</span>}
        </li>
      ))}
    </ul>
  );
}
