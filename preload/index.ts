/**
 * The only door between the renderer and main: window.s2t, built from the channel and event
 * names in names.ts (checked against common/ipc by type). ipcRenderer itself is never exposed,
 * and unknown names are refused here before anything reaches main (which validates again).
 */
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import type { S2tBridge } from '../common/ipc';
import { INVOKE_CHANNEL, eventChannel } from '../common/ipc/transport';
import { channelNames, eventNames } from './names';

const knownChannels: ReadonlySet<string> = new Set(channelNames);
const knownEvents: ReadonlySet<string> = new Set(eventNames);

const bridge: S2tBridge = {
  invoke(channel, args) {
    if (!knownChannels.has(channel)) return Promise.resolve({ ok: false, error: { code: 'UNKNOWN_CHANNEL', message: `unknown channel ${String(channel)}` } });
    return ipcRenderer.invoke(INVOKE_CHANNEL, channel, args);
  },
  on(event, listener) {
    if (!knownEvents.has(event)) throw new Error(`unknown event ${String(event)}`);
    const handler = (_e: IpcRendererEvent, payload: unknown) => listener(payload as never);
    ipcRenderer.on(eventChannel(event), handler);
    return () => ipcRenderer.removeListener(eventChannel(event), handler);
  },
  // Electron knows where a picked or dropped file is: main reads it in place, nothing is copied.
  async stageFile(file) {
    const path = webUtils.getPathForFile(file);
    if (!path) throw new Error(`${file.name} is not a file on this computer`);
    return { kind: 'path', path };
  },
};

contextBridge.exposeInMainWorld('s2t', bridge);
