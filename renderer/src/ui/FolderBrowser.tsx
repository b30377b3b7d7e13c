import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { FolderListing } from '../../../common/ipc';
import { call } from '../lib/bridge';
import { Dialog } from './Dialog';

/**
 * A folder browser for browser mode, where there is no native folder dialog: main lists the
 * folders (folders.list), the person opens them, goes up, or types a path, and chooses the folder
 * shown. Hidden folders are one tick away.
 */
export function FolderBrowser({ title, onChoose, onClose }: { title: string; onChoose: (path: string) => void; onClose: () => void }) {
  const [listing, setListing] = useState<FolderListing | null>(null);
  const [typed, setTyped] = useState('');
  const [showHidden, setShowHidden] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const pathId = useId();

  // Only the latest request's answer is shown: an earlier one that comes back later (the first
  // listing, while the person has already typed a path and pressed Enter) must not replace it.
  // Nor does an answer replace a path typed while it was on its way.
  const latest = useRef(0);
  const typedSince = useRef(false);
  const open = useCallback(
    async (path: string | undefined) => {
      const mine = ++latest.current;
      typedSince.current = false;
      try {
        const next = await call('folders.list', { path, showHidden });
        if (mine !== latest.current) return;
        setListing(next);
        if (!typedSince.current) setTyped(next.path);
        setProblem(null);
      } catch (e) {
        if (mine === latest.current) setProblem((e as Error).message);
      }
    },
    [showHidden],
  );
  // First the folder last chosen (or home); again when hidden folders are shown or hidden.
  useEffect(() => void open(listing?.path), [showHidden]);

  const go = () => {
    if (typed.trim()) void open(typed.trim());
  };
  const sep = listing?.path.includes('\\') ? '\\' : '/';
  const inside = (name: string) => (listing!.path.endsWith(sep) ? `${listing!.path}${name}` : `${listing!.path}${sep}${name}`);

  return (
    <Dialog title={title} onClose={onClose} className="folder-browser">
      {/* Not a form: the browser often sits inside one (Preferences), and forms do not nest. */}
      <div className="folder-browser-path">
        <label htmlFor={pathId}>Folder</label>
        <input
          id={pathId}
          value={typed}
          spellCheck={false}
          onChange={(e) => {
            typedSince.current = true;
            setTyped(e.target.value);
          }}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            go();
          }}
        />
        <button type="button" onClick={go}>
          Go
        </button>
      </div>
      <div className="folder-browser-nav">
        <button type="button" disabled={!listing?.parent} onClick={() => void open(listing!.parent!)}>
          ↑ Up
        </button>
        <button type="button" disabled={!listing} onClick={() => void open(listing!.home)}>
          Home
        </button>
        <label className="small">
          <input type="checkbox" checked={showHidden} onChange={(e) => setShowHidden(e.target.checked)} /> Show hidden folders
        </label>
      </div>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      {listing && (
        <ul className="folder-browser-list" aria-label={`Folders in ${listing.path}`}>
          {listing.folders.map((name) => (
            <li key={name}>
              <button type="button" onClick={() => void open(inside(name))}>
                {name}
              </button>
            </li>
          ))}
          {listing.folders.length === 0 && <li className="muted small">No folders inside this one.</li>}
        </ul>
      )}
      {listing?.truncated && <p className="muted small">Only the first {listing.folders.length} folders are listed; type the path of one further down.</p>}
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={!listing} onClick={() => listing && (onChoose(listing.path), onClose())}>
          Choose this folder
        </button>
      </div>
    </Dialog>
  );
}
