import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { issueText } from '../node/zod-issues';

/** Non-secret settings. Secrets never live here (see platform/secrets.ts). */
export const Settings = z.object({
  /** A cloud account's base URL; absent means the embedded local service. */
  serviceUrl: z.url({ protocol: /^https?$/ }).optional(),
});
export type Settings = z.infer<typeof Settings>;

/** settings.json in the data dir, overridden by S2T_SERVICE_URL. A malformed file is an error, not a silent default. */
export function readSettings(dataDir: string): Settings {
  const file = join(dataDir, 'settings.json');
  let raw: unknown = {};
  if (existsSync(file)) {
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
    }
  }
  const parsed = Settings.safeParse(raw);
  if (!parsed.success) throw new Error(`${file}: ${issueText(parsed.error)}`);
  const env = process.env.S2T_SERVICE_URL;
  return env ? Settings.parse({ ...parsed.data, serviceUrl: env }) : parsed.data;
}
