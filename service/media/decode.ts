/**
 * ffmpeg and ffprobe: what the engines and the editors need from any audio or video file.
 *
 * Every run reads one stored file with the demuxer its sniffed format names and only the `file`
 * protocol, so a file whose content asks ffmpeg to open something else (a playlist behind an ID3
 * tag naming file:// media of another organization, a concat list, a URL) is refused, not followed.
 */
import { runTool, ToolError } from './run-tool';
import { sniffFile } from './sniff';

export class MediaError extends Error {}

/** ffmpeg's options for reading one stored media file, nothing beside it. */
async function inputArgs(input: string): Promise<string[]> {
  const sniffed = await sniffFile(input);
  if (!sniffed) throw new MediaError('The media file is not in a supported audio or video format.');
  return ['-protocol_whitelist', 'file', '-f', sniffed.demuxer, '-i', `file:${input}`];
}

/** Output options that stop at the duration cap, so media that lies about its length still cannot run on. */
const capArgs = (maxSeconds?: number) => (maxSeconds === undefined ? [] : ['-t', String(maxSeconds)]);

/** Engine input: 16 kHz, mono, 16-bit PCM WAV. */
export async function decodeToWav(input: string, output: string, signal?: AbortSignal, maxSeconds?: number): Promise<void> {
  try {
    await runTool('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...(await inputArgs(input)), ...capArgs(maxSeconds), '-vn', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', '-f', 'wav', output], { signal });
  } catch (e) {
    if (e instanceof ToolError) throw new MediaError(`The media file could not be decoded: ${lastLine(e.stderr) || e.message}.`);
    throw e;
  }
}

/** What the editors play: the kept copy's file name and media type, by whether the source has a picture. */
export const keptCopyOf = (hasVideo: boolean) => (hasVideo ? { file: 'kept.mp4', mediaType: 'video/mp4' } : { file: 'kept.mp3', mediaType: 'audio/mpeg' });

/** The kept copy's media type, from the file name keptCopyOf gave it. */
export const keptMediaType = (path: string) => (path.endsWith('.mp4') ? 'video/mp4' : 'audio/mpeg');

/**
 * The low-bitrate copy kept for the editors (keep_source), which every browser plays: a video keeps
 * its picture at 360p at most (H.264 + AAC, moov first so playback starts before the end arrives),
 * audio becomes 32 kb/s mono MP3. Both keep the source's full length, so the player's duration is
 * the session's.
 */
export async function encodeKeptCopy(input: string, output: string, hasVideo: boolean, signal?: AbortSignal, maxSeconds?: number): Promise<void> {
  const encode = hasVideo
    ? ['-map', '0:v:0', '-map', '0:a:0?', '-vf', "scale=-2:'min(360,ih)':flags=bilinear,format=yuv420p", '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '30', '-c:a', 'aac', '-ac', '1', '-b:a', '64k', '-movflags', '+faststart', '-f', 'mp4']
    : ['-vn', '-ac', '1', '-ar', '22050', '-c:a', 'libmp3lame', '-b:a', '32k', '-f', 'mp3'];
  await runTool('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...(await inputArgs(input)), ...capArgs(maxSeconds), ...encode, output], { signal });
}

export interface Probe {
  durationSec: number;
  hasVideo: boolean;
  hasAudio: boolean;
}

/**
 * Duration and streams. With `maxSeconds` (the service's --max-media-hours), longer media is
 * refused here, before anything is converted.
 */
export async function probe(input: string, signal?: AbortSignal, maxSeconds?: number): Promise<Probe> {
  let stdout: string;
  try {
    ({ stdout } = await runTool('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...(await inputArgs(input))], { signal }));
  } catch (e) {
    if (e instanceof ToolError) throw new MediaError(`The media file could not be read: ${lastLine(e.stderr) || e.message}.`);
    throw e;
  }
  const info = JSON.parse(stdout) as { format?: { duration?: string }; streams?: { codec_type?: string; duration?: string }[] };
  const streams = info.streams ?? [];
  const duration = Number(info.format?.duration ?? streams.find((s) => s.duration)?.duration ?? 0);
  const result = {
    durationSec: Number.isFinite(duration) ? duration : 0,
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
    hasVideo: streams.some((s) => s.codec_type === 'video' && s.duration !== undefined),
  };
  if (maxSeconds !== undefined && result.durationSec > maxSeconds) {
    throw new MediaError(`The media is ${hours(result.durationSec)} long; this service converts media up to ${hours(maxSeconds)}.`);
  }
  return result;
}

const hours = (s: number) => (s >= 3600 ? `${+(s / 3600).toFixed(2)} h` : `${+(s / 60).toFixed(1)} min`);

function lastLine(s: string): string {
  return s.trim().split('\n').filter(Boolean).at(-1)?.replace(/^.*?: /, '').trim() ?? '';
}
