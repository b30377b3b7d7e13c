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

/** The low-bitrate copy kept for the editors (keep_source): 32 kb/s mono MP3, which every browser plays. */
export async function encodeKeptCopy(input: string, output: string, signal?: AbortSignal, maxSeconds?: number): Promise<void> {
  await runTool('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...(await inputArgs(input)), ...capArgs(maxSeconds), '-vn', '-ac', '1', '-ar', '22050', '-c:a', 'libmp3lame', '-b:a', '32k', output], { signal });
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
