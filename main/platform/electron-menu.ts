/**
 * The application menu: the platform's usual roles (the app menu on macOS; File, Edit, View,
 * Window, Help) and our commands, each sent to the window as an `app.command` event.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { AppCommand } from '../../common/ipc/shell';

export function menuTemplate(opts: { platform: NodeJS.Platform; appName: string; send(command: AppCommand): void }): MenuItemConstructorOptions[] {
  const mac = opts.platform === 'darwin';
  // The keys are shown but not registered: the page already handles each of them (renderer/src/ui/
  // shortcuts.ts), and a registered accelerator would take the key from the page (a find bar that
  // opens twice, a Ctrl+F in a text field that never reaches it).
  const command = (label: string, cmd: AppCommand, accelerator?: string): MenuItemConstructorOptions => ({ label, accelerator, registerAccelerator: false, id: cmd, click: () => opts.send(cmd) });
  const preferences = command(mac ? 'Settings…' : 'Preferences…', 'preferences', 'CmdOrCtrl+,');
  return [
    ...(mac
      ? [{ label: opts.appName, submenu: [{ role: 'about' }, { type: 'separator' }, preferences, { type: 'separator' }, { role: 'services' }, { type: 'separator' }, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, { type: 'separator' }, { role: 'quit' }] } satisfies MenuItemConstructorOptions]
      : []),
    {
      label: 'File',
      submenu: [
        command('New transcription…', 'new-transcription', 'CmdOrCtrl+N'),
        command('Export…', 'export'),
        ...(mac ? [] : [{ type: 'separator' } as const, preferences]),
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { label: 'Edit', submenu: [{ role: 'undo' }, { role: 'redo' }, { type: 'separator' }, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }, { type: 'separator' }, command('Find…', 'find', 'CmdOrCtrl+F')] },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
    { role: 'help', submenu: [command('Keyboard shortcuts', 'shortcuts', mac ? undefined : 'F1')] },
  ];
}
