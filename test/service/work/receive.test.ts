/**
 * receiveToFile: a body or multipart part streamed to a file; a part its multipart reader cut at
 * the fileSize limit (busboy marks the stream `truncated`) is refused, and nothing is left behind.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../../service/http/errors';
import { receiveToFile } from '../../../service/media/receive';

const dir = mkdtempSync(join(tmpdir(), 's2t-receive-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('receiveToFile', () => {
  it('writes a whole stream and returns its length', async () => {
    const path = join(dir, 'whole');
    expect(await receiveToFile(Readable.from([Buffer.from('abc'), Buffer.from('defg')]), path)).toBe(7);
    expect(readFileSync(path, 'utf8')).toBe('abcdefg');
  });

  it('refuses a part cut at its size limit with 413 and removes what was written', async () => {
    const path = join(dir, 'cut');
    const part = Object.assign(Readable.from([Buffer.from('only the first bytes')]), { truncated: true });
    const refused = await receiveToFile(part, path).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(413);
    expect(JSON.stringify((refused as HttpError).body)).toMatch(/larger than 4 GiB; use the resumable \(tus\) upload/);
    expect(existsSync(path)).toBe(false);
  });
});
