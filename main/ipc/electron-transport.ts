/**
 * The Electron transport of the IPC contract: one invoke channel dispatched through the same
 * registry as the web bridge, answering only our own window's main frame.
 */
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { INVOKE_CHANNEL, eventChannel, type EventName, type EventPayload } from '../../common/ipc';
import { dispatch, type Handlers } from './registry';

export function registerElectronTransport(ipcMain: Pick<IpcMain, 'handle'>, handlers: Handlers, isTrusted: (event: IpcMainInvokeEvent) => boolean): void {
  ipcMain.handle(INVOKE_CHANNEL, (event, channel: unknown, args: unknown) => {
    if (!isTrusted(event)) return { ok: false, error: { code: 'FORBIDDEN', message: 'untrusted sender' } };
    return dispatch(handlers, channel, args);
  });
}

export function sendEvent<E extends EventName>(contents: Pick<WebContents, 'send' | 'isDestroyed'>, event: E, payload: EventPayload<E>): void {
  if (!contents.isDestroyed()) contents.send(eventChannel(event), payload);
}
