import { alignEngine } from './align';
import { decodeEngine } from './decode';
import type { Engine } from './engine';
import { uploadEngine } from './upload';

export const engines: Record<Engine['name'], Engine> = { decode: decodeEngine, align: alignEngine, upload: uploadEngine };
export { PermanentEngineError, type Engine, type EngineInput, type EngineResult } from './engine';
