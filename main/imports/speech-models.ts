/**
 * speechModels.*: the model manager's calls, passed to the service of the signed-in account.
 * A refusal the service words (no disk space, a wrong file) reaches the person as it is; a
 * service without a model manager (404: a cloud) or a user who may not manage models (403)
 * answers `available: false` with the reason.
 */
import type { z } from 'zod';
import type { SpeechModelsOutcome, speechModelChannels } from '../../common/ipc';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { UserFacingError } from '../ipc/user-facing-error';

type Args<C extends keyof typeof speechModelChannels> = z.output<(typeof speechModelChannels)[C]['args']>;

export function speechModelHandlers(client: ApiClient) {
  const list = async (): Promise<SpeechModelsOutcome> => {
    try {
      return { available: true, list: await client.call('speechModels.list', {}, { timeoutMs: 15_000 }) };
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return { available: false, message: 'This service manages its speech models itself; there is nothing to install here.' };
      if (e instanceof ApiError && e.status === 403) return { available: false, message: 'Only a developer or an administrator of this service can install speech models.' };
      throw new UserFacingError('SPEECH_MODELS', e instanceof ApiError && e.transport ? 'The service cannot be reached now.' : (e as Error).message);
    }
  };
  /** An action, then the fresh list; the service's refusal in its own words. */
  const act = async (fn: () => Promise<unknown>): Promise<SpeechModelsOutcome> => {
    try {
      await fn();
    } catch (e) {
      throw new UserFacingError('SPEECH_MODELS', e instanceof ApiError ? e.message.replace(/^[\w.]+: /, '') : (e as Error).message);
    }
    return list();
  };
  return {
    'speechModels.list': (_: Args<'speechModels.list'>) => list(),
    'speechModels.download': (a: Args<'speechModels.download'>) => act(() => client.call('speechModels.download', { params: { name: a.name } })),
    'speechModels.pause': (a: Args<'speechModels.pause'>) => act(() => client.call('speechModels.pause', { params: { name: a.name } })),
    'speechModels.cancel': (a: Args<'speechModels.cancel'>) => act(() => client.call('speechModels.cancel', { params: { name: a.name } })),
    'speechModels.delete': (a: Args<'speechModels.delete'>) => act(() => client.call('speechModels.delete', { params: { name: a.name } })),
    'speechModels.import': (a: Args<'speechModels.import'>) => act(() => client.call('speechModels.import', { body: { path: a.path } }, { timeoutMs: 600_000 })),
  };
}
