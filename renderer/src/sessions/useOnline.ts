import { useEffect, useState } from 'react';
import { call, subscribe } from '../lib/bridge';

/** Whether the service is reached now (sync.state), so a message can say what happens now, not "when it is reached" while it is. */
export function useOnline(): boolean {
  const [online, setOnline] = useState(true);
  useEffect(() => {
    call('sync.state', {}).then((s) => setOnline(s.connectivity !== 'offline'), () => {});
    return subscribe('sync.state', (s) => setOnline(s.connectivity !== 'offline'));
  }, []);
  return online;
}

/** Where a deletion goes: both places now when online; here now and the service later when offline. */
export const deletedWhere = (online: boolean) => (online ? 'deleted here and on the service' : 'deleted here at once, and on the service when it is reached again');
