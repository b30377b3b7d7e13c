import { useState } from 'react';
import { call } from '../lib/bridge';
import { useAsync } from '../lib/useAsync';
import { CopyButton } from '../ui/CopyButton';
import { Dialog } from '../ui/Dialog';
import './about.css';

/**
 * Help and About: the version, where the app keeps its data (to back it up or find it), where
 * its documentation is, the keyboard shortcuts, and the licences of the packages it ships.
 */
export function AboutDialog({ onClose, onShortcuts }: { onClose: () => void; onShortcuts: () => void }) {
  const about = useAsync(() => call('app.about', {}), []);
  const info = about.value;
  return (
    <Dialog title="Help and about" onClose={onClose} className="about">
      {about.error && <p className="error" role="alert">{about.error}</p>}
      {!info ? (
        !about.error && <p className="muted">Loading…</p>
      ) : (
        <>
          <p>
            <strong>{info.name}</strong> {info.version} <span className="muted small">({info.runtime})</span>
          </p>
          <p>Transcripts and captions of your recordings, kept on this computer and in step with the speech-to-text service; edits made offline are sent when it is reached again.</p>
          <dl className="about-facts">
            <dt>Your data</dt>
            <dd>
              <code className="path">{info.dataDir}</code> <CopyButton text={info.dataDir} label="Copy path" />
              <div className="muted small">Settings, the local copy of your sessions, watch folders and this computer's service. Back up this folder to keep them.</div>
            </dd>
            <dt>Documentation</dt>
            <dd>
              {info.docsDir ? <code className="path">{info.docsDir}</code> : <span className="muted">Not installed with this copy.</span>}{' '}
              <button type="button" className="link" onClick={onShortcuts}>Keyboard shortcuts</button>
            </dd>
          </dl>
          <Licences licences={info.licences} />
        </>
      )}
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onClose} autoFocus>Close</button>
      </div>
    </Dialog>
  );
}

function Licences({ licences }: { licences: { name: string; version: string; licence: string }[] }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="about-licences" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Open-source licences ({licences.length} packages)</summary>
      {open && (
        <ul>
          {licences.map((l) => (
            <li key={l.name}>
              {l.name} {l.version} — {l.licence}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
