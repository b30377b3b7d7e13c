/**
 * Hostile media, over real HTTP with real ffmpeg:
 * - a file that starts with an ID3 tag and goes on as an HLS playlist naming file:// media of
 *   another organization passed the sniffer, and ffmpeg then read (and transcribed) that media;
 * - a tiny FLAC of hours of silence was converted whole (a 16 kHz WAV of ~1 GB an hour of ten).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe, MediaError } from '../../service/media/decode';
import { startService, stopAndRemove, tempDir, type RunningService } from '../helpers/service';
import { speechWav } from '../helpers/speech';
import { codedError } from '../service/answers';
import { batchUpload, client, PASSAGE, putMedia, sessionDone, type Client } from '../service/work/helpers';

let svc: RunningService;
let c: Client;
let dir: string;
let victimMedia: string;

const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args]);

beforeAll(async () => {
  dir = tempDir('s2t-sec-media-');
  // The cap is the service option; 8 h here so that the 10-hour file is over it.
  svc = await startService({ args: ['--max-media-hours', '8'] });
  c = await client(svc.url);
  // Another organization's kept media, where the service keeps such copies.
  const victimDir = join(svc.dataDir, 'media', 'victim-session');
  mkdirSync(victimDir, { recursive: true });
  victimMedia = join(victimDir, 'kept.mp3');
  ffmpeg('-i', await speechWav(PASSAGE), '-c:a', 'libmp3lame', '-b:a', '32k', victimMedia);
}, 120_000);

afterAll(() => stopAndRemove(svc, dir));

/** ID3v2.4 header with an empty tag, then an HLS playlist whose one segment is `target`. */
function id3Playlist(target: string): Buffer {
  const playlist = `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:30\n#EXTINF:30.0,\nfile://${target}\n#EXT-X-ENDLIST\n`;
  return Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]), Buffer.from(playlist)]);
}

const sessionDirs = () => (existsSync(join(svc.dataDir, 'media')) ? readdirSync(join(svc.dataDir, 'media')).filter((d) => d !== 'victim-session') : []);

describe('media the service refuses to follow or convert', () => {
  it('an ID3 tag followed by a playlist is not media: 415 at the legacy PUT and at batch upload; nothing derived from the named file', async () => {
    const evil = id3Playlist(victimMedia);
    // ffmpeg left to itself would follow it (the attack this guards against).
    const evilPath = join(dir, 'evil.mp3');
    writeFileSync(evilPath, evil);
    const followed = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=format_name', '-of', 'csv=p=0', evilPath]).toString().trim();
    expect(followed).toBe('hls');

    const created = await c.json('sessions.create', '/api/v3/speech-to-text/session', { language: 'en' }, { 'x-svc-s2t-key': c.batchKey });
    const sid = created.body.result.session_id as string;
    const put = await putMedia(c, sid, new Uint8Array(evil), { 'content-type': 'audio/mpeg', 'x-filename': 'song.mp3' });
    expect(put.status).toBe(415);
    expect(codedError({ status: put.status, text: await put.text() }).code).toBe('INVALID_FILE_FORMAT');

    const up = await batchUpload(c, new Uint8Array(evil), 'song.mp3', 'audio/mpeg');
    expect(up.status).toBe(415);
    expect(codedError(up).code).toBe('INVALID_FILE_FORMAT');

    // No session of ours holds audio, a waveform or a kept copy made from anything.
    for (const d of sessionDirs()) for (const f of readdirSync(join(svc.dataDir, 'media', d))) expect(f).not.toMatch(/audio\.wav|waveform|kept/);
    // And ffmpeg itself, asked through the service's decode module, refuses the file.
    await expect(probe(evilPath)).rejects.toBeInstanceOf(MediaError);
  });

  it('a real ID3-tagged MP3 is still media', async () => {
    const tagged = join(dir, 'tagged.mp3');
    ffmpeg('-i', await speechWav('hello there'), '-metadata', 'title=Tagged', '-id3v2_version', '4', '-c:a', 'libmp3lame', tagged);
    expect(readFileSync(tagged).subarray(0, 3).toString()).toBe('ID3');
    const up = await batchUpload(c, new Uint8Array(readFileSync(tagged)), 'tagged.mp3');
    expect(up.status).toBe(200);
    expect(up.body.media_type).toBe('audio/mpeg');
    expect((await probe(tagged)).hasAudio).toBe(true);
  });

  it('a 3.6 MB FLAC of 10 hours of silence fails with a clear error before any conversion', async () => {
    const flac = join(dir, 'silence.flac');
    ffmpeg('-f', 'lavfi', '-i', 'anullsrc=r=1000:cl=mono', '-t', String(10 * 3600), '-c:a', 'flac', flac);
    expect(statSync(flac).size).toBeLessThan(8 * 1024 * 1024);
    const created = await c.json('sessions.create', '/api/v3/speech-to-text/session', { language: 'en' }, { 'x-svc-s2t-key': c.batchKey });
    const sid = created.body.result.session_id as string;
    const put = await putMedia(c, sid, new Uint8Array(readFileSync(flac)), { 'content-type': 'audio/flac', 'x-filename': 'silence.flac' });
    expect(put.status).toBe(200);
    const s = await sessionDone(c, sid);
    expect(s.status).toBe('failed');
    expect(s.error).toBe('The media is 10 h long; this service converts media up to 8 h.');
    expect(s.date_retried).toBeNull();
    // Nothing was converted: no engine WAV, no waveform beside the stored source.
    const files = readdirSync(join(svc.dataDir, 'media', sid));
    expect(files.filter((f) => /audio\.wav|waveform|kept/.test(f))).toEqual([]);
  });
});
