import { defineConfig } from 'vitest/config';

/** `npm run docs:screenshots`: only the guide's picture run, which `npm test` leaves out. */
export default defineConfig({
  test: {
    include: ['test/docs/*.screens.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['./test/helpers/temp-root.ts'],
  },
});
