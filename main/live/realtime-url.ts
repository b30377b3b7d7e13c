/**
 * Where an account streams live audio: a cloud account may name its own realtime host (the
 * vendor serves realtime on a host of its own; the realtimeUrls setting, per service address);
 * otherwise the service's own /api/v3/realtime, over ws: or wss: as the service is http: or https:.
 */
import { REALTIME_PATHS } from '../../common/api/realtime';

export function realtimeUrlOf(serviceUrl: string, configured?: string): string {
  if (configured) return configured;
  const u = new URL(serviceUrl);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.pathname = u.pathname.replace(/\/+$/, '') + REALTIME_PATHS[0];
  u.search = '';
  return u.toString();
}
