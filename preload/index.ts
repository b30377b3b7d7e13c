/**
 * The only door between the renderer and main: window.s2t, built from the channel and event
 * lists in common/ipc. ipcRenderer itself is never exposed, and unknown names are refused here
 * before anything reaches main (which validates again).
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { channelNames, eventNames, type S2tBridge } from '../common/ipc';
import { INVOKE_CHANNEL, eventChannel } from '../common/ipc/transport';

const bridge: S2tBridge = {
  invoke(channel, args) {
    if (!channelNames.includes(channel)) return Promise.resolve({ ok: false, error: { code: 'UNKNOWN_CHANNEL', message: `unknown channel ${String(channel)}` } });
    return ipcRenderer.invoke(INVOKE_CHANNEL, channel, args);
  },
  on(event, listener) {
    if (!eventNames.includes(event)) throw new Error(`unknown event ${String(event)}`);
    const handler = (_e: IpcRendererEvent, payload: unknown) => listener(payload as never);
    ipcRenderer.on(eventChannel(event), handler);
    return () => ipcRenderer.removeListener(eventChannel(event), handler);
  },
};

contextBridge.exposeInMainWorld('s2t', bridge);
