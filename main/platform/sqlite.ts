import type Database from 'better-sqlite3';

/**
 * Options every database of main opens with. Under `npm start`, Electron's Node has another ABI
 * than the one npm built better-sqlite3 for, so scripts/electron-native.mjs builds a copy for
 * Electron and names it in S2T_SQLITE_BINDING; packaged apps are rebuilt in place instead.
 */
export function sqliteOptions(options: Database.Options = {}): Database.Options {
  const nativeBinding = process.env.S2T_SQLITE_BINDING;
  return nativeBinding ? { ...options, nativeBinding } : options;
}
