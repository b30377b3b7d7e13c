import { stat } from 'node:fs/promises';

/** Whether `path` is a regular file now, without blocking the main thread (false when it is not there). */
export const isFile = (path: string): Promise<boolean> => stat(path).then((s) => s.isFile(), () => false);
