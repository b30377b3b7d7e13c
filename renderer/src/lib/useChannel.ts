import { useEffect, useRef } from 'react';
import type { ArgsOf, ChannelName, EventPayload, ResultOf } from '../../../common/ipc';
import { call, subscribe } from './bridge';
import { useAsync } from './useAsync';

export type CacheChange = EventPayload<'cache.changed'>;

/** Runs `onChange` for every change to the local cache that `reloadOn` cares about (all of them without it). */
export function useCacheChanged(onChange: (change: CacheChange) => void, reloadOn?: (change: CacheChange) => boolean): void {
  // The latest callbacks, so a caller's inline functions do not resubscribe on every render.
  const latest = useRef({ onChange, reloadOn });
  latest.current = { onChange, reloadOn };
  useEffect(() => subscribe('cache.changed', (c) => (latest.current.reloadOn?.(c) ?? true) && latest.current.onChange(c)), []);
}

/**
 * A channel's answer, read through the bridge when the arguments change and read again whenever
 * the cache changes in a way `reloadOn` cares about (never, without it). Keeps the last value while reloading.
 */
export function useChannel<C extends ChannelName>(channel: C, args: ArgsOf<C>, reloadOn?: (change: CacheChange) => boolean) {
  const key = JSON.stringify(args);
  const read = useAsync<ResultOf<C>>(() => call(channel, JSON.parse(key) as ArgsOf<C>), [channel, key]);
  const { reload } = read;
  useCacheChanged(reload, reloadOn ?? never);
  return read;
}

const never = () => false;
