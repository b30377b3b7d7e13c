/** updates.* over IPC: the installed app's updater, or 'unsupported' where there is none (browser mode, a build from source). */
import type { Emit, Handlers } from '../ipc/registry';
import type { Updates } from './updates';

export function updateHandlers(updates: Updates | undefined, emit: Emit): Partial<Handlers> {
  const unsupported = async () => ({ state: 'unsupported' }) as const;
  if (!updates) return { 'updates.state': unsupported, 'updates.check': unsupported, 'updates.download': unsupported, 'updates.install': unsupported };
  updates.onChange((state) => emit('updates.changed', state));
  return {
    'updates.state': async () => updates.state(),
    'updates.check': () => updates.check(),
    'updates.download': () => updates.download(),
    'updates.install': async () => {
      updates.installAndRestart();
      return updates.state();
    },
  };
}
