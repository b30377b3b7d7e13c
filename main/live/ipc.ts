/** The live.* channels over the account's LiveController. */
import type { z } from 'zod';
import type { liveChannels } from '../../common/ipc/live';
import { userFacing } from '../ipc/user-facing-error';
import type { LiveController } from './controller';
import type { realtimeAddress } from './realtime-url';

type Args<C extends keyof typeof liveChannels> = z.output<(typeof liveChannels)[C]['args']>;

export function liveHandlers(live: LiveController, address: ReturnType<typeof realtimeAddress>) {
  return {
    'live.state': (_: Args<'live.state'>) => Promise.resolve(live.current()),
    'live.start': (a: Args<'live.start'>) => userFacing('LIVE', () => live.start(a.language)),
    'live.audio': (a: Args<'live.audio'>) => userFacing('LIVE', () => ({ recordedMs: live.audio(Buffer.from(a.pcm.buffer, a.pcm.byteOffset, a.pcm.byteLength)) })),
    'live.pause': (a: Args<'live.pause'>) => userFacing('LIVE', () => live.pause(a.paused)),
    'live.stop': (_: Args<'live.stop'>) => userFacing('LIVE', () => live.stop()),
    'live.reset': (_: Args<'live.reset'>) => userFacing('LIVE', () => live.reset()),
    'live.address': (_: Args<'live.address'>) => Promise.resolve(address.get()),
    'live.setAddress': (a: Args<'live.setAddress'>) => userFacing('LIVE', () => address.set(a.url)),
  };
}
