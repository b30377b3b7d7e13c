/**
 * The Electron entry (dist/main/index.js) and the preload (dist/preload/index.cjs), as built, run
 * against a fake `electron` module, since the Electron binary cannot run on these machines. The
 * main entry starts the real backend (the embedded local service, the cache) underneath.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { INVOKE_CHANNEL, channelNames } from '../../../common/ipc';
import { runFakeElectronMain as runMain } from '../../fixtures/fake-electron/run';
import { ROOT } from '../../helpers/service';

describe('Electron main entry under a fake electron', () => {
  it('opens one hardened window on the embedded service, answers only its own frame, and quits cleanly', async () => {
    const { report, code } = await runMain();
    expect(code).toBe(0);
    expect(report.sandbox).toBe(true);
    expect(report.singleInstance).toBe(true);
    expect(report.windows).toHaveLength(1);
    const [win] = report.windows;
    expect(win.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
    expect(existsSync(String(win.options.webPreferences.preload))).toBe(true);
    expect(win.loaded && existsSync(win.loaded)).toBe(true);
    expect(win.shown).toBe(true);
    // Every permission request is denied; navigation away and new windows are refused.
    expect(report.permissions.length).toBe(3);
    expect(report.permissions.every((p) => p.granted === false)).toBe(true);
    expect(report.navigation['will-navigate']).toEqual({ toSelfPrevented: false, toElsewherePrevented: true });
    expect(report.windowOpen).toEqual({ https: 'deny', file: 'deny' });
    // IPC: the real backend answers our window; a foreign frame and malformed arguments are refused.
    expect(report.ipc.channel).toBe(INVOKE_CHANNEL);
    // Signed in to the embedded service already: main does it with the owner credential.
    expect(report.ipc.trusted).toMatchObject({ ok: true, value: { signedIn: true, mode: 'local' } });
    expect(report.ipc.foreignFrame).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(report.ipc.badArgs).toMatchObject({ ok: false });
  });
});

describe('preload under a fake electron', () => {
  function loadPreload() {
    const exposed: Record<string, unknown> = {};
    const sent: unknown[][] = [];
    const listeners = new Map<string, (...a: unknown[]) => void>();
    const electron = {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
      ipcRenderer: {
        invoke: async (...a: unknown[]) => (sent.push(a), { ok: true, value: 'answer' }),
        on: (ch: string, fn: (...a: unknown[]) => void) => listeners.set(ch, fn),
        removeListener: (ch: string) => listeners.delete(ch),
      },
      // A picked or dropped file's path, as Electron knows it; '' for a file made in the page.
      webUtils: { getPathForFile: (f: { name: string }) => (f.name === 'made-in-page.wav' ? '' : `/media/${f.name}`) },
    };
    const code = readFileSync(join(ROOT, 'dist/preload/index.cjs'), 'utf8');
    const module = { exports: {} };
    const required: string[] = [];
    const require = (id: string) => {
      required.push(id);
      if (id === 'electron') return electron;
      throw new Error(`a sandboxed preload may only require electron, not ${id}`);
    };
    runInNewContext(code, { module, exports: module.exports, require, Promise });
    return { exposed, sent, listeners, required };
  }

  it('exposes only window.s2t with invoke, on and stageFile, never ipcRenderer', async () => {
    const { exposed, sent, listeners, required } = loadPreload();
    expect(required).toEqual(['electron']);
    expect(Object.keys(exposed)).toEqual(['s2t']);
    const s2t = exposed.s2t as {
      invoke: (c: string, a: unknown) => Promise<unknown>;
      on: (e: string, fn: (p: unknown) => void) => () => void;
      stageFile: (f: { name: string }) => Promise<unknown>;
    };
    expect(Object.keys(s2t).sort()).toEqual(['invoke', 'on', 'stageFile']);
    // A file is handed to main by its path (read in place); one with no path on disk is refused.
    expect(await s2t.stageFile({ name: 'talk.wav' })).toEqual({ kind: 'path', path: '/media/talk.wav' });
    await expect(s2t.stageFile({ name: 'made-in-page.wav' })).rejects.toThrow(/not a file on this computer/);
    expect(await s2t.invoke(channelNames[0], {})).toEqual({ ok: true, value: 'answer' });
    expect(sent).toEqual([[INVOKE_CHANNEL, channelNames[0], {}]]);
    // An unknown channel is refused in the preload, before anything reaches main.
    expect(await s2t.invoke('shell.openExternal', {})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
    expect(sent).toHaveLength(1);
    expect(() => s2t.on('nope', () => {})).toThrow(/unknown event/);
    const got: unknown[] = [];
    const off = s2t.on('cache.changed', (p) => got.push(p));
    listeners.get('s2t:event:cache.changed')!({ sender: 'ipc' }, { sessions: ['a'] });
    expect(got).toEqual([{ sessions: ['a'] }]);
    off();
    expect(listeners.has('s2t:event:cache.changed')).toBe(false);
  });
});
