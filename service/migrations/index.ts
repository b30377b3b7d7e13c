import type { Migration } from '../db';
import { coreMigrations } from './core';

/** Every module's migrations; openDb sorts them by version. */
export const migrations: Migration[] = [...coreMigrations];
