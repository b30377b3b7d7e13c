import { useEffect, useRef, useState } from 'react';
import { engineName } from '../imports/EngineSelect';
import type { ModelChoice, WatchFolder, WatchItem, WatchProfile, WatchState } from '../../../common/ipc';
import { call, subscribe } from '../lib/bridge';
import { ConfirmDialog } from '../ui/Dialog';
import { WatchProfileForm } from './WatchProfileForm';
import { bytes, eta, fileName, isDuplicate, STATE_LABEL } from './watchFormat';

const ITEMS = 50;

/**
 * One watched folder: its settings in brief (edited in place), pause and resume, remove (asked
 * first), and its latest items as they move on, each with its outcome.
 */
export function WatchFolderCard(props: {
  folder: WatchFolder;
  globallyPaused: boolean;
  models: ModelChoice[];
  modelsError: string | null;
  onState: (s: WatchState) => void;
  onFolder: (f: WatchFolder) => void;
  onOpenSession: (sessionId: string) => void;
}) {
  const { folder, globallyPaused, onState } = props;
  const [items, setItems] = useState<WatchItem[]>([]);
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
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
  const put = (i: WatchItem) => setItems((now) => now.map((x) => (x.itemId === i.itemId ? i : x)));
  const retry = (itemId: number) => act(() => call('watch.retry', { itemId }).then(put));
  const again = (itemId: number) => act(() => call('watch.transcribeAgain', { itemId }).then(put));
  const save = async (profile: WatchProfile) => {
    props.onFolder(await call('watch.updateFolder', { folderId: folder.id, profile }));
    setEditing(false);
  };
  const p = folder.profile;
  const language = props.models.find((m) => m.key === p.language)?.name ?? p.language;
  const status = folder.paused ? 'Paused' : globallyPaused ? 'Paused (all)' : 'Watching';

  return (
    <section className="watch-folder" aria-label={folder.path}>
      <header>
        <div className="where">
          <span className="path" title={folder.path}>
            {folder.path}
          </span>
          <span className="muted small">
            {language} · {p.formats.map((f) => f.format.toUpperCase()).join(', ')} · {p.output === 'folder' ? `into ${p.outputDir}` : 'beside the media'}
            {p.afterwards === 'move' ? ' · sources to done/' : ''}
            {p.speechEngine ? ` · ${engineName(p.speechEngine)}` : ''}
          </span>
        </div>
        <span className={`pill ${folder.paused || globallyPaused ? 'paused' : 'on'}`}>{status}</span>
        <span className="actions">
          <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
            Edit
          </button>
          <button type="button" onClick={() => pause(!folder.paused)}>{folder.paused ? 'Resume' : 'Pause'}</button>
          <button type="button" className="link danger" onClick={() => setRemoving(true)}>
            Remove
          </button>
        </span>
      </header>
      {editing && <WatchProfileForm profile={p} models={props.models} modelsError={props.modelsError} folderPath={folder.path} onSave={save} onCancel={() => setEditing(false)} />}
      {removing && (
        <ConfirmDialog
          title="Stop watching this folder?"
          message={`${folder.path} will no longer be watched. Its media and the files already written stay where they are.`}
          confirmLabel="Remove"
          danger
          onConfirm={() => void act(() => call('watch.removeFolder', { folderId: folder.id }).then(onState))}
          onClose={() => setRemoving(false)}
        />
      )}
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
              <span className={`state ${i.state}`}>{isDuplicate(i) ? 'Already done' : STATE_LABEL[i.state]}</span>
              <span className={i.state === 'delivered' && i.outputs.length > 0 ? 'detail written' : 'detail'}>
                {i.state === 'uploading' || i.state === 'transcribing' ? (
                  <>
                    <progress max={100} value={i.percent} aria-label={`${i.state === 'uploading' ? 'Upload' : 'Transcription'} of ${fileName(i.path)}`} />
                    <span className="small muted">
                      {i.state === 'uploading' ? (
                        <>
                          {i.percent.toFixed(0)}% of {bytes(i.bytesTotal)}
                          {i.rate !== null && ` · ${bytes(i.rate)}/s`}
                          {i.etaSeconds !== null && ` · ${eta(i.etaSeconds)}`}
                        </>
                      ) : (
                        `${i.percent.toFixed(0)}% transcribed`
                      )}
                    </span>
                  </>
                ) : i.state === 'delivered' && i.outputs.length > 0 ? (
                  <ul className="small muted" aria-label={`Files written for ${fileName(i.path)}`} title={i.outputs.join('\n')}>
                    {i.outputs.map((o) => (
                      <li key={o}>{fileName(o)}</li>
                    ))}
                  </ul>
                ) : (
                  <span className="small muted">{bytes(i.bytesTotal)}</span>
                )}
              </span>
              {i.message && <span className={`reason ${i.state === 'failed' ? 'error' : 'muted'} small`}>{i.message}</span>}
              {i.state === 'failed' && (
                <button className="retry" onClick={() => retry(i.itemId)}>
                  Retry
                </button>
              )}
              {/* A delivered file's session is one click away, as an upload's is. */}
              {i.state === 'delivered' && !isDuplicate(i) && i.sessionId && (
                <span className="again">
                  <button type="button" className="link" onClick={() => props.onOpenSession(i.sessionId!)}>
                    Open session
                  </button>
                </span>
              )}
              {isDuplicate(i) && (
                <span className="again">
                  {i.sessionId && (
                    <button type="button" className="link" onClick={() => props.onOpenSession(i.sessionId!)}>
                      Open session
                    </button>
                  )}
                  <button type="button" onClick={() => again(i.itemId)}>
                    Transcribe again
                  </button>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {total > items.length && <p className="muted small">Showing the latest {items.length} of {total}.</p>}
    </section>
  );
}
