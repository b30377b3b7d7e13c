/**
 * The desktop shell of the built Electron entry under the fake electron module (the real backend
 * and embedded service underneath): the menu's commands reach the window as app.command, a second
 * start brings the window back, its bounds are remembered (and clamped to a display that is still
 * there), and the native dialogs pass through the channels, remembering each purpose's folder.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventChannel } from '../../../common/ipc';
import { runFakeElectronMain } from '../../fixtures/fake-electron/run';

describe('Electron shell under a fake electron', () => {
  it('has the usual roles and our commands in the menu, sends app.command, focuses on a second start, and passes dialogs through', async () => {
    const { report, code, stderr } = await runFakeElectronMain();
    expect(code, stderr).toBe(0);
    const byId = Object.fromEntries(report.menu.filter((i) => i.id).map((i) => [i.id, i]));
    expect(byId['new-transcription']).toMatchObject({ label: 'New transcription…', accelerator: 'CmdOrCtrl+N' });
    expect(byId.preferences).toMatchObject({ accelerator: 'CmdOrCtrl+,' });
    expect(Object.keys(byId).sort()).toEqual(['export', 'find', 'new-transcription', 'preferences', 'shortcuts']);
    // Their keys are the page's own (shown in the menu, not taken from the page).
    expect(report.menu.filter((i) => i.id).every((i) => i.registerAccelerator === false)).toBe(true);
    const roles = report.menu.map((i) => i.role).filter(Boolean);
    expect(roles).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll', 'viewMenu', 'windowMenu', 'help', 'quit']));
    // Each click reached the window as an app.command event, in menu order.
    const commands = report.sent.filter((s) => s.channel === eventChannel('app.command')).map((s) => (s.payload as { command: string }).command);
    expect(commands).toEqual(report.menu.filter((i) => i.id).map((i) => i.id));

    expect(report.secondInstance).toEqual({ restored: true, shown: true, focused: true });

    // dialog.open: native, modal to the window; the second open starts in the first one's folder.
    expect(report.shell.open).toEqual([
      { ok: true, value: { supported: true, paths: ['/media/talks/talk.mp3'] } },
      { ok: true, value: { supported: true, paths: ['/media/talks/talk.mp3'] } },
    ]);
    const [first, second, save] = report.dialogs;
    expect(first).toMatchObject({ kind: 'open', modal: true, options: { properties: ['openFile', 'multiSelections'] } });
    expect(first.options.defaultPath).toBeUndefined();
    expect(second.options).toMatchObject({ defaultPath: '/media/talks', properties: ['openFile'] });
    expect(JSON.stringify(first.options.filters)).toContain('mp3');
    expect(report.shell.save).toEqual({ ok: true, value: { supported: true, path: '/exports/talk.srt' } });
    expect(save).toMatchObject({ kind: 'save', modal: true, options: { defaultPath: 'talk.srt' } });
    expect(report.shell.show).toEqual({ ok: true, value: { supported: true } });
    expect(report.shown).toEqual(['/exports/talk.srt']);
    // The folders used are remembered in settings, each under its purpose.
    expect(report.sent.filter((s) => s.channel === eventChannel('settings.changed')).length).toBeGreaterThan(0);
  });

  it('remembers the window bounds across starts, and clamps them to a display that is still there', async () => {
    const userData = mkdtempSync(join(tmpdir(), 's2t-fake-electron-'));
    const twoScreens = JSON.stringify([{ x: 0, y: 0, width: 1920, height: 1080 }, { x: 1920, y: 0, width: 2560, height: 1440 }]);
    const first = await runFakeElectronMain({ userData, env: { FAKE_ELECTRON_DISPLAYS: twoScreens, FAKE_ELECTRON_MOVE_TO: JSON.stringify({ x: 2200, y: 150, width: 1500, height: 900 }) } });
    expect(first.code, first.stderr).toBe(0);
    // No bounds saved yet: the default size, centred by Electron (no x/y given).
    expect(first.report.windows[0].options).toMatchObject({ width: 1280, height: 820 });
    expect(first.report.windows[0].options).not.toHaveProperty('x');
    expect(JSON.parse(readFileSync(join(userData, 'settings.json'), 'utf8')).window).toEqual({ x: 2200, y: 150, width: 1500, height: 900, maximized: false });

    // Both screens still there: exactly where it was.
    const again = await runFakeElectronMain({ userData, env: { FAKE_ELECTRON_DISPLAYS: twoScreens } });
    expect(again.report.windows[0].options).toMatchObject({ x: 2200, y: 150, width: 1500, height: 900 });

    // The second screen is gone and the first is small: the window comes back whole on the first.
    const small = JSON.stringify([{ x: 0, y: 0, width: 1366, height: 728 }]);
    const clamped = await runFakeElectronMain({ userData, env: { FAKE_ELECTRON_DISPLAYS: small } });
    expect(clamped.report.windows[0].options).toMatchObject({ x: 0, y: 0, width: 1366, height: 728 });
  });
});
