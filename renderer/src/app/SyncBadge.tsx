import { useEffect, useState } from 'react';
import type { ServiceStatus } from '../../../common/ipc';
import { call, subscribe } from '../lib/bridge';
import { useSyncState } from '../lib/useSyncState';

const LABEL = { online: 'Online', offline: 'Offline', degraded: 'Service slow or failing' } as const;
/** Said beside "Offline" where the top bar has room, and always in the tooltip. */
const OFFLINE_DETAIL = 'edits are kept and sent later';

export function SyncBadge() {
  const [state, setState] = useSyncState();
  // The embedded service restarting after a crash: say so, not "Offline" (main/service-supervisor.ts).
  const [service, setService] = useState<ServiceStatus | null>(null);
  useEffect(() => {
    call('service.status', {}).then(setService, () => {});
    return subscribe('service.status', setService);
  }, []);
  if (service && service.state !== 'running') {
    return (
      <span className="sync-status" role="status">
        <span className={`sync service-down ${service.state === 'failed' ? 'offline' : 'degraded'}`} title={service.message ?? undefined}>
          <span className="dot" /> {service.state === 'failed' ? 'The local service stopped — restart the app' : 'Restarting the local service…'}
        </span>
      </span>
    );
  }
  if (!state) return null;
  return (
    <span className="sync-status">
      <button
        className={`sync ${state.connectivity}`}
        title={state.connectivity === 'offline' ? `Offline: ${OFFLINE_DETAIL}. Sync now` : 'Sync now'}
        onClick={() => call('sync.now', {}).then(setState, () => {})}
      >
        <span className="dot" /> {LABEL[state.connectivity]}
        {state.connectivity === 'offline' && <span className="sync-detail"> — {OFFLINE_DETAIL}</span>}
        {state.pending > 0 && <span className="pending">{state.pending} to send</span>}
        {state.running && <span className="spinner" aria-label="syncing" />}
      </button>
      {state.blocked > 0 && (
        // Kept changes the service refused or that kept failing: say so and why (the reasons kept with them), and let the user send them again.
        <button className="sync-blocked" title={state.blockedReasons.join('\n') || undefined} onClick={() => call('sync.retryBlocked', {}).then(setState, () => {})}>
          {state.blocked} not sent — retry
        </button>
      )}
    </span>
  );
}
