/** Every bench module, in the order they run. Add yours here. */
import type { BenchModule } from './harness';
import { clientBench } from './client.bench';
import { captionsFollowBench } from './captions-follow.bench';
import { documentsBench } from './documents.bench';
import { diarizationBench } from './diarization.bench';
import { editorsBench } from './editors.bench';
import { formatsBench } from './formats.bench';
import { keptCopyBench } from './kept-copy.bench';
import { peaksBench } from './peaks.bench';
import { summaryBench } from './summary.bench';
import { sessionListBench } from './session-list.bench';
import { speechEnginesBench } from './speech-engines.bench';
import { serviceAuthBench } from './service-auth.bench';
import { serviceWorkBench } from './service-work.bench';
import { watchBench } from './watch.bench';
import { supervisionBench } from './supervision.bench';
import { teamQueueBench } from './team-queue.bench';
import { liveBench } from './live.bench';

export const modules: BenchModule[] = [
  formatsBench,
  serviceAuthBench,
  clientBench,
  serviceWorkBench,
  watchBench,
  supervisionBench,
  sessionListBench,
  editorsBench,
  peaksBench,
  captionsFollowBench,
  documentsBench,
  keptCopyBench,
  summaryBench,
  teamQueueBench,
  speechEnginesBench,
  liveBench,
  diarizationBench,
];
