/** A route's offloaded task, with the pool's refusals as answers a person understands. */
import type { ServiceContext } from '../context';
import { codedError, validationError } from '../http/errors';
import { OffloadError, OffloadTaskError } from './pool';
import type { TaskInput, TaskName, TaskOutput } from './tasks';

export async function offloaded<K extends TaskName>(ctx: ServiceContext, task: K, input: TaskInput<K>): Promise<TaskOutput<K>> {
  try {
    return await ctx.offload.run(task, input);
  } catch (e) {
    if (e instanceof OffloadError) {
      if (e.reason === 'busy' || e.reason === 'closed') throw codedError(503, 'busy', e.message);
      throw codedError(413, 'too_large', e.message, { limit: e.reason });
    }
    if (e instanceof OffloadTaskError && e.kind === 'FormatError') throw validationError(`export: ${e.message}`);
    throw e;
  }
}
