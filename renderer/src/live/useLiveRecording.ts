import { useEffect, useState } from 'react';
import { call, subscribe } from '../lib/bridge';

/** Whether a live recording is running (recording or paused), for the header's Live button. */
export function useLiveRecording(): boolean {
  const [on, setOn] = useState(false);
  useEffect(() => {
    const update = (s: { status: string }) => setOn(s.status === 'recording' || s.status === 'paused');
    void call('live.state', {}).then(update, () => null);
    return subscribe('live.changed', update);
  }, []);
  return on;
}
