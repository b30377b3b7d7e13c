import { useEffect, useState } from 'react';
import type { SyncState } from '../../../common/ipc';
import { call, subscribe } from './bridge';

/** The sync engine's state (sync.state), kept current by its event; null until the first answer. The setter takes the state a sync call answers. */
export function useSyncState(): [SyncState | null, (s: SyncState) => void] {
  const [state, setState] = useState<SyncState | null>(null);
  useEffect(() => {
    call('sync.state', {}).then(setState, () => {});
    return subscribe('sync.state', setState);
  }, []);
  return [state, setState];
}

/** Whether the service is reached now, so a message can say what happens now, not "when it is reached" while it is. */
export function useOnline(): boolean {
  return useSyncState()[0]?.connectivity !== 'offline';
}
