/**
 * Where an account streams live audio: a cloud account may name its own realtime host (the
 * vendor serves realtime on a host of its own; the realtimeUrls setting, per service address);
 * otherwise the service's own /api/v3/realtime, over ws: or wss: as the service is http: or https:.
 */
import { isIP } from 'node:net';
import type { LiveAddress } from '../../common/ipc/live';
import { REALTIME_PATHS } from '../../common/api/realtime';
import { UserFacingError } from '../ipc/user-facing-error';
import type { SettingsStore } from '../settings';

export function defaultRealtimeUrl(serviceUrl: string): string {
  const u = new URL(serviceUrl);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.pathname = u.pathname.replace(/\/+$/, '') + REALTIME_PATHS[0];
  u.search = '';
  return u.toString();
}

/** The configured address when it still passes the checks (a hand-edited settings file may not), else the service's own. */
export function realtimeUrlOf(serviceUrl: string, configured?: string): string {
  if (configured) {
    try {
      return checkRealtimeUrl(configured, serviceUrl);
    } catch {
      // fall back to the service's own address
    }
  }
  return defaultRealtimeUrl(serviceUrl);
}

type HostKind = 'loopback' | 'private' | 'public';

/** Loopback and private hosts, by name or address (IPv4, IPv6, IPv4-mapped IPv6). */
function hostKind(hostname: string): HostKind {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (host.endsWith('.local') || host.endsWith('.internal') || host.endsWith('.lan') || host.endsWith('.home.arpa')) return 'private';
  const v4 = isIP(host) === 4 ? host : /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host)?.[1];
  if (v4) {
    const [a, b] = v4.split('.').map(Number);
    if (a === 127) return 'loopback';
    if (a === 0 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127) || a >= 224) return 'private';
    return 'public';
  }
  if (isIP(host) === 6) {
    if (host === '::1') return 'loopback';
    if (host === '::' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host) || host.startsWith('::ffff:')) return 'private';
  }
  return 'public';
}

/**
 * Checks an address a person gives for an account's live stream, and answers it as ws(s):.
 * A cloud's address is wss: (https: is taken as wss:), with no user, query or fragment. The same
 * guard as elsewhere against reaching inward: a loopback or private host (this computer, the
 * local network, link-local and cloud metadata addresses) only when the account's service is on
 * such a host too (a service run on this computer or the local network for testing).
 */
export function checkRealtimeUrl(input: string, serviceUrl: string): string {
  let u: URL;
  try {
    u = new URL(input.trim());
  } catch {
    throw new UserFacingError('BAD_REALTIME_URL', 'That is not a web address. Give the live address as wss://host/path.');
  }
  const service = new URL(serviceUrl);
  const serviceKind = hostKind(service.hostname);
  const kind = hostKind(u.hostname);
  const secure = u.protocol === 'wss:' || u.protocol === 'https:';
  const plain = u.protocol === 'ws:' || u.protocol === 'http:';
  if (!secure && !plain) throw new UserFacingError('BAD_REALTIME_URL', `A live address starts with wss:// (not ${u.protocol}//).`);
  if (plain && (service.protocol === 'https:' || kind === 'public')) throw new UserFacingError('BAD_REALTIME_URL', 'The live address of a cloud service must be secure: wss:// (or https://), never ws://.');
  if (u.username || u.password) throw new UserFacingError('BAD_REALTIME_URL', 'A live address carries no user name or password: the app sends its own key.');
  if (u.search || u.hash) throw new UserFacingError('BAD_REALTIME_URL', 'A live address has no ?query or #fragment: the app adds the language itself.');
  if (kind !== 'public' && serviceKind === 'public') throw new UserFacingError('BAD_REALTIME_URL', `${u.hostname} is on this computer or a private network, but the account's service is not: give the service's public live address.`);
  if (kind === 'loopback' && serviceKind !== 'loopback') throw new UserFacingError('BAD_REALTIME_URL', `${u.hostname} is this computer, but the account's service is not.`);
  if (input.length > 2048) throw new UserFacingError('BAD_REALTIME_URL', 'That address is too long.');
  u.protocol = secure ? 'wss:' : 'ws:';
  return u.toString();
}

/** The live.address channels: read and change an account's realtime address (only a service added by address has one of its own). */
export function realtimeAddress(serviceUrl: string, mode: 'local' | 'cloud', settings: SettingsStore) {
  const get = (): LiveAddress => {
    const custom = mode === 'cloud' ? (settings.get().realtimeUrls[serviceUrl] ?? null) : null;
    return { url: realtimeUrlOf(serviceUrl, custom ?? undefined), custom, usual: defaultRealtimeUrl(serviceUrl), editable: mode === 'cloud' };
  };
  return {
    get,
    set(url: string | null): LiveAddress {
      if (mode !== 'cloud') throw new UserFacingError('BAD_REALTIME_URL', "This computer's service streams live on its own address.");
      const { [serviceUrl]: _old, ...others } = settings.get().realtimeUrls;
      const next = url && url.trim() ? checkRealtimeUrl(url, serviceUrl) : null;
      if (next === defaultRealtimeUrl(serviceUrl) || next === null) settings.set({ realtimeUrls: others });
      else settings.set({ realtimeUrls: { ...others, [serviceUrl]: next } });
      return get();
    },
  };
}
