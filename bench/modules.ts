/** Every bench module, in the order they run. Add yours here. */
import type { BenchModule } from './harness';

export const modules: BenchModule[] = [];
