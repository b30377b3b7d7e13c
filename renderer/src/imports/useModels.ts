import type { ModelChoice } from '../../../common/ipc';
import { call } from '../lib/bridge';
import { useAsync } from '../lib/useAsync';

/** The service's languages (models.list), for the new-transcription dialog and watch folders alike. */
export function useModels(): { models: ModelChoice[]; stale: boolean; error: string | null; loading: boolean } {
  const read = useAsync(() => call('models.list', {}), []);
  return { models: read.value?.models ?? [], stale: read.value?.stale ?? false, error: read.error, loading: read.loading };
}

/** The key to start with: the remembered one when it can still be chosen, else the first supported language. */
export function usableLanguage(models: ModelChoice[], wanted: string | null | undefined): string {
  const exact = models.find((m) => m.key === wanted && m.supported);
  if (exact) return exact.key;
  // An older default ('en') still means the first supported model of that language.
  const sameLanguage = wanted ? models.find((m) => m.supported && m.key.toLowerCase().split('-')[0] === wanted.toLowerCase().split('-')[0]) : undefined;
  return (sameLanguage ?? models.find((m) => m.supported))?.key ?? '';
}
