/**
 * The speech engines the service can run, and which one a job gets: pocketsphinx when its program
 * is installed (no download, US English), and each installed Whisper model. A job that names an
 * engine gets that one or fails saying why; otherwise the first installed model that serves the
 * language (the largest, as the most accurate), else pocketsphinx; with neither, it fails saying
 * what to install.
 */
import { programInstalled } from '../../node/tools';
import { pocketsphinx } from './decode';
import { PermanentEngineError, type Recognizer } from './engine';
import { whisperRecognizer } from './whisper';
import type { ModelStore } from '../speech-models/store';

export interface EngineInfo {
  id: string;
  label: string;
  punctuates: boolean;
  /** Seconds of compute per second of audio measured here (null: not measured). */
  speed_rtf: number | null;
}

/** The program the built-in engine runs (Debian's pocketsphinx package). */
const POCKETSPHINX_PROGRAM = 'pocketsphinx_continuous';
const NO_ENGINE = 'No speech engine is installed here: install a Whisper model (Preferences, Speech models), or the Debian packages pocketsphinx and pocketsphinx-en-us.';

export class SpeechEngines {
  constructor(readonly store: ModelStore) {}

  /** Every usable recogniser, the models largest first, pocketsphinx last (when it is installed). */
  recognizers(): Recognizer[] {
    const models = [...this.store.installed()].sort((a, b) => b.bytes - a.bytes);
    const builtIn = programInstalled(POCKETSPHINX_PROGRAM) ? [pocketsphinx] : [];
    return [...models.map((m) => whisperRecognizer(m, this.store.pathOf(m))), ...builtIn];
  }

  list(): EngineInfo[] {
    const speed = new Map(this.store.installed().map((m) => [`whisper:${m.name}`, m.speed_rtf]));
    return this.recognizers().map((r) => ({ id: r.id, label: r.label, punctuates: r.punctuates, speed_rtf: speed.get(r.id) ?? null }));
  }

  /** The recogniser a job in `language` runs on; `requested` is an engine id from the job's options. */
  choose(language: string, requested?: string): Recognizer {
    const all = this.recognizers();
    if (requested) {
      const r = all.find((x) => x.id === requested);
      if (!r) throw new PermanentEngineError(`The speech engine "${requested}" is not installed here; installed: ${all.map((x) => x.id).join(', ')}.`);
      return r;
    }
    const serving = all.find((r) => r.supports(language)) ?? all.find((r) => r === pocketsphinx);
    if (!serving) throw new PermanentEngineError(NO_ENGINE);
    return serving;
  }

  /**
   * Why a request naming `engine` for `language` cannot be taken, or null when it can: checked
   * when the request comes, so a wrong name is refused at once instead of failing its job later.
   */
  refusal(engine: string, language: string, mode: string): string | null {
    const r = this.recognizers().find((x) => x.id === engine);
    if (!r) return `speech_engine: "${engine}" is not installed here (installed: ${this.list().map((e) => e.id).join(', ')})`;
    if (mode !== 'upload' && !r.supports(language)) return `speech_engine: ${r.label} does not serve language "${language}"`;
    return null;
  }

  /** The engine that would serve `language` (for the models list and the app's "will run on"). */
  servingEngine(language: string): Recognizer | undefined {
    return this.recognizers().find((r) => r.supports(language));
  }
}
