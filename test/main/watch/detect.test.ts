/** Finding finished media: ignore rules, content sniffing, and the write-finish + stability check (real files, real chokidar). */
import { execFileSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WatchProfile, type WatchFolder } from '../../../common/ipc';
import { FolderDetector, type FinishedFile } from '../../../main/watch/detector';
import { ignoreRule } from '../../../main/watch/ignore';
import { hashFile, sniffMedia } from '../../../main/watch/media';
import { cleanup, tempDir } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';
import { smallWav, until } from './helpers';

const dirs: string[] = [];
const dir = () => {
  const d = tempDir('s2t-watch-detect-');
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach(cleanup));

const folder = (path: string, profile: Partial<WatchProfile> = {}): WatchFolder => ({ id: 'f', path, paused: false, profile: WatchProfile.parse(profile) });

describe('ignore rules', () => {
  it('skips hidden, temp and partial files, and the folders we write into', () => {
    const root = '/w';
    const rule = ignoreRule(folder(root, { output: 'folder', outputDir: 'out', afterwards: 'move' }));
    for (const p of ['.hidden.wav', 'a.wav.part', 'b.mp4.crdownload', 'c.tmp', '~$d.docx', '.s2t-x.srt.1234.tmp', 'e.wav~', 'f.download']) expect(rule(join(root, p), 'file'), p).toBe(true);
    for (const p of ['out', 'out/x.wav', 'done/x.wav', 'failed/x.wav', '.git']) expect(rule(join(root, p), p.includes('.') ? 'file' : 'dir'), p).toBe(true);
    expect(rule('/elsewhere/x.wav', 'file')).toBe(true);
    for (const p of ['talk.wav', 'sub/talk.mp4', 'outside.wav']) expect(rule(join(root, p), 'file'), p).toBe(false);
  });

  it('applies include and exclude patterns and the subfolders switch', () => {
    const rule = ignoreRule(folder('/w', { include: ['**/*.wav'], exclude: ['drafts/**'] }));
    expect(rule('/w/a.wav', 'file')).toBe(false);
    expect(rule('/w/x/a.wav', 'file')).toBe(false);
    expect(rule('/w/a.mp3', 'file')).toBe(true);
    expect(rule('/w/drafts/a.wav', 'file')).toBe(true);
    const flat = ignoreRule(folder('/w', { subfolders: false }));
    expect(flat('/w/a.wav', 'file')).toBe(false);
    expect(flat('/w/x/a.wav', 'file')).toBe(true);
    expect(flat('/w/x', 'dir')).toBe(true);
  });
});

describe('media sniffing and hashing', () => {
  it('recognises media by content, not by name', async () => {
    const d = dir();
    const wav = await speechWav('sniffing test');
    copyFileSync(wav, join(d, 'no-extension'));
    writeFileSync(join(d, 'fake.wav'), 'this is text pretending to be audio\n');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=d=0.5', '-f', 'lavfi', '-i', 'color=s=64x64:d=0.5', '-shortest', '-y', join(d, 'clip.mp4')]);
    execFileSync('ffmpeg', ['-loglevel', 'error', '-i', wav, '-y', join(d, 'speech.mp3')]);
    expect(await sniffMedia(join(d, 'no-extension'))).toBe('audio/wav');
    expect(await sniffMedia(join(d, 'fake.wav'))).toBeNull();
    expect(await sniffMedia(join(d, 'clip.mp4'))).toMatch(/^video\/mp4$/);
    expect(await sniffMedia(join(d, 'speech.mp3'))).toBe('audio/mpeg');
  });

  it('hashes by content: a copy under another name has the same identity', async () => {
    const d = dir();
    writeFileSync(join(d, 'a.wav'), smallWav(1));
    copyFileSync(join(d, 'a.wav'), join(d, 'b.wav'));
    writeFileSync(join(d, 'c.wav'), smallWav(2));
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((n) => hashFile(join(d, `${n}.wav`))));
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  });
});

describe('detector', () => {
  it('reports a file written slowly only once, after the last write; never partial, hidden or non-media files', async () => {
    const d = dir();
    const found: (FinishedFile & { at: number })[] = [];
    const det = new FolderDetector(folder(d), { stabilityMs: 800, onFile: (f) => found.push({ ...f, at: Date.now() }) });
    await det.start();
    try {
      const bytes = readFileSync(await speechWav('a file that arrives slowly in several pieces'));
      const target = join(d, 'slow.wav');
      const pieces = 8;
      const step = Math.ceil(bytes.length / pieces);
      let lastWrite = 0;
      for (let i = 0; i < pieces; i++) {
        appendFileSync(target, bytes.subarray(i * step, (i + 1) * step));
        lastWrite = Date.now();
        // Pauses shorter than the stability window, as a slow copy over a network share makes.
        await new Promise((r) => setTimeout(r, 500));
      }
      writeFileSync(join(d, 'download.wav.part'), smallWav(3));
      writeFileSync(join(d, '.hidden.wav'), smallWav(4));
      writeFileSync(join(d, 'notes.txt'), 'not media');
      writeFileSync(join(d, 'done-later.wav.crdownload'), smallWav(5));
      await new Promise((r) => setTimeout(r, 300));
      renameSync(join(d, 'done-later.wav.crdownload'), join(d, 'done-later.wav'));
      await until('both files', () => found.length >= 2, 15_000);
      await new Promise((r) => setTimeout(r, 1500));
      expect(found.map((f) => f.path).sort()).toEqual([join(d, 'done-later.wav'), target]);
      const slow = found.find((f) => f.path === target)!;
      expect(slow.size).toBe(bytes.length);
      expect(slow.at).toBeGreaterThanOrEqual(lastWrite + 800);
      expect(slow.hash).toBe(await hashFile(target));
    } finally {
      await det.close();
    }
  });

  it('picks up files that were already there when it starts, and skips an output folder inside the watched folder', async () => {
    const d = dir();
    mkdirSync(join(d, 'out'));
    mkdirSync(join(d, 'sub'));
    writeFileSync(join(d, 'old.wav'), smallWav(10));
    writeFileSync(join(d, 'sub', 'nested.wav'), smallWav(11));
    writeFileSync(join(d, 'out', 'ours.wav'), smallWav(12));
    const found: string[] = [];
    const det = new FolderDetector(folder(d, { output: 'folder', outputDir: 'out' }), { stabilityMs: 300, onFile: (f) => found.push(f.path) });
    await det.start();
    try {
      await until('the files present at start', () => found.length >= 2, 10_000);
      writeFileSync(join(d, 'out', 'more.wav'), smallWav(13));
      await new Promise((r) => setTimeout(r, 1200));
      expect(found.sort()).toEqual([join(d, 'old.wav'), join(d, 'sub', 'nested.wav')]);
    } finally {
      await det.close();
    }
  });
});
