import type { z } from 'zod';
import { issueText } from '../../node/zod-issues';
import { channels, type ChannelName, type EventName, type EventPayload, type IpcError, type ResultOf } from '../../common/ipc';
import { classifyFailure, describeFailure } from '../api/failure';
import { UserFacingError } from './user-facing-error';

/** One async function a channel; arguments arrive already validated. */
export type Handlers = { [C in ChannelName]: (args: z.output<(typeof channels)[C]['args']>) => Promise<ResultOf<C>> };

export type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export type DispatchResult = { ok: true; value: unknown } | { ok: false; error: IpcError };

/**
 * The one way a transport (Electron IPC or the web bridge) calls a handler: validates the channel
 * name and arguments with the contract, and turns any failure into an IpcError, never a throw.
 */
export async function dispatch(handlers: Handlers, channel: unknown, args: unknown): Promise<DispatchResult> {
  if (typeof channel !== 'string' || !Object.hasOwn(channels, channel)) {
    // Never String() what a client sent: an object whose toString is not a function throws.
    const named = typeof channel === 'string' ? channel.slice(0, 64) : `of type ${channel === null ? 'null' : typeof channel}`;
    return { ok: false, error: { code: 'UNKNOWN_CHANNEL', message: `unknown channel ${named}` } };
  }
  const name = channel as ChannelName;
  const parsed = channels[name].args.safeParse(args ?? {});
  if (!parsed.success) {
    return { ok: false, error: { code: 'BAD_ARGUMENTS', message: issueText(parsed.error) } };
  }
  try {
    const value = await (handlers[name] as (a: unknown) => Promise<unknown>)(parsed.data);
    return { ok: true, value };
  } catch (err) {
    if (err instanceof UserFacingError) return { ok: false, error: { code: err.code, message: err.message } };
    const failure = classifyFailure(err);
    if (failure) return { ok: false, error: { code: failure.code, message: describeFailure(failure, 'request') } };
    const e = err as { code?: unknown; message?: unknown };
    return { ok: false, error: { code: typeof e.code === 'string' ? e.code : 'INTERNAL', message: typeof e.message === 'string' ? e.message : 'something went wrong' } };
  }
}
