import { useEffect, useRef, useState } from 'react';
import type { WatchFolder, WatchItem, WatchState } from '../../../common/ipc';
import { call, subscribe } from '../lib/bridge';
import { bytes, eta, fileName, STATE_LABEL } from './watchFormat';

const ITEMS = 50;

/** One watched folder: its settings in brief, pause and resume, and its latest items as they move on. */
export function WatchFolderCard({ folder, globallyPaused, onState }: { folder: WatchFolder; globallyPaused: boolean; onState: (s: WatchState) => void }) {
  const [items, setItems] = useState<WatchItem[]>([]);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const reloading = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    const load = () =>
      call('watch.items', { folderId: folder.id, limit: ITEMS }).then(
        (r) => {
          setItems(r.items);
          setTotal(r.total);
        },
        (e: Error) => setError(e.message),
      );
    void load();
    // Progress of a known item updates it in place; anything new reloads the list (at most 4 times a second).
    return subscribe('watch.progress', (p) => {
      if (p.folderId !== folder.id) return;
      let known = false;
      setItems((now) => now.map((i) => (i.itemId === p.itemId ? ((known = true), { ...i, ...p }) : i)));
      if ((!known || p.state === 'delivered' || p.state === 'failed') && !reloading.current) {
        reloading.current = setTimeout(() => {
          reloading.current = null;
          void load();
        }, 250);
      }
    });
  }, [folder.id]);

  const act = (fn: () => Promise<unknown>) => fn().catch((e: Error) => setError(e.message));
  const pause = (paused: boolean) => act(() => call('watch.pause', { folderId: folder.id, paused }).then(onState));
  const retry = (itemId: number) => act(() => call('watch.retry', { itemId }).then((i) => setItems((now) => now.map((x) => (x.itemId === itemId ? i : x)))));
  const p = folder.profile;
  const status = folder.paused ? 'Paused' : globallyPaused ? 'Paused (all)' : 'Watching';

  return (
    <section className="watch-folder" aria-label={folder.path}>
      <header>
        <div className="where">
          <span className="path" title={folder.path}>
            {folder.path}
          </span>
          <span className="muted small">
            {p.language} · {p.formats.map((f) => f.format.toUpperCase()).join(', ')} · {p.output === 'folder' ? `into ${p.outputDir}` : 'beside the media'}
            {p.afterwards === 'move' ? ' · sources to done/' : ''}
          </span>
        </div>
        <span className={`pill ${folder.paused || globallyPaused ? 'paused' : 'on'}`}>{status}</span>
        <button onClick={() => pause(!folder.paused)}>{folder.paused ? 'Resume' : 'Pause'}</button>
        <button className="link danger" onClick={() => act(() => call('watch.removeFolder', { folderId: folder.id }).then(onState))}>
          Remove
        </button>
      </header>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {items.length === 0 ? (
        <p className="muted small empty-items">No media yet. Files dropped into this folder appear here.</p>
      ) : (
        <ul className="watch-items" aria-label={`Items in ${folder.path}`}>
          {items.map((i) => (
            <li key={i.itemId} className={`watch-item ${i.state}`}>
              <span className="name" title={i.path}>
                {fileName(i.path)}
              </span>
              <span className={`state ${i.state}`}>{STATE_LABEL[i.state]}</span>
              <span className="detail">
                {i.state === 'uploading' ? (
                  <>
                    <progress max={100} value={i.percent} aria-label={`Upload of ${fileName(i.path)}`} />
                    <span className="small muted">
                      {i.percent.toFixed(0)}% of {bytes(i.bytesTotal)}
                      {i.rate !== null && ` · ${bytes(i.rate)}/s`}
                      {i.etaSeconds !== null && ` · ${eta(i.etaSeconds)}`}
                    </span>
                  </>
                ) : i.state === 'delivered' ? (
                  <span className="small muted" title={i.outputs.join('\n')}>
                    {i.outputs.length ? i.outputs.map(fileName).join(', ') : (i.message ?? '')}
                  </span>
                ) : (
                  <span className="small muted">{bytes(i.bytesTotal)}</span>
                )}
              </span>
              {i.message && i.state !== 'delivered' && <span className={`reason ${i.state === 'failed' ? 'error' : 'muted'} small`}>{i.message}</span>}
              {i.state === 'failed' && (
                <button className="retry" onClick={() => retry(i.itemId)}>
                  Retry
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {total > items.length && <p className="muted small">Showing the latest {items.length} of {total}.</p>}
    </section>
  );
}
