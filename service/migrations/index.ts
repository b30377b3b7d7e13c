import type { Migration } from '../db';
import { authMigrations } from './auth';
import { coreMigrations } from './core';
import { limitsMigrations } from './limits';
import { queueMigrations } from './queue';
import { workMigrations } from './work';

/** Every module's migrations; openDb sorts them by version. */
export const migrations: Migration[] = [...coreMigrations, ...authMigrations, ...workMigrations, ...limitsMigrations, ...queueMigrations];
