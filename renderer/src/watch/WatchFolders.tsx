import { useEffect, useState } from 'react';
import type { WatchFolder, WatchState } from '../../../common/ipc';
import { AddWatchFolder } from './AddWatchFolder';
import { call } from '../lib/bridge';
import { useModels } from '../imports/useModels';
import { WatchFolderCard } from './WatchFolderCard';
import './watch.css';
import './watch-profile.css';

/** The watch-folders panel: add folders, edit, pause and resume them (or everything), follow their items. */
export function WatchFolders({ onOpenSession }: { onOpenSession: (sessionId: string) => void }) {
  const [state, setState] = useState<WatchState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const languages = useModels();

  const reload = () => call('watch.state', {}).then(setState, (e: Error) => setError(e.message));
  useEffect(() => void reload(), []);

  const pauseAll = (paused: boolean) => call('watch.pause', { paused }).then(setState, (e: Error) => setError(e.message));
  const putFolder = (f: WatchFolder) => setState((s) => s && { ...s, folders: s.folders.map((x) => (x.id === f.id ? f : x)) });

  return (
    <section className="watch" aria-labelledby="watch-title">
      <div className="watch-head">
        <h2 id="watch-title">Watch folders</h2>
        <span className="muted small">Media dropped into these folders is transcribed once, and the files you choose are written beside it.</span>
        {state && state.folders.length > 0 && <button onClick={() => pauseAll(!state.paused)}>{state.paused ? 'Resume all' : 'Pause all'}</button>}
      </div>
      <AddWatchFolder models={languages.models} modelsError={languages.error} onAdded={() => void reload()} />
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {state?.folders.length === 0 && <p className="muted empty-list">No watched folders yet. Give a folder's path above and choose Add folder: media put there is then transcribed on its own.</p>}
      <div className="watch-folders" role="list" aria-label="Watched folders">
        {state?.folders.map((f) => (
          <div role="listitem" key={f.id}>
            <WatchFolderCard folder={f} globallyPaused={state.paused} models={languages.models} modelsError={languages.error} onState={setState} onFolder={putFolder} onOpenSession={onOpenSession} />
          </div>
        ))}
      </div>
    </section>
  );
}
