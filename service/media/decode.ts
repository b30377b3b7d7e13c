/** ffmpeg and ffprobe: what the engines and the editors need from any audio or video file. */
import { runTool, ToolError } from './run-tool';

export class MediaError extends Error {}

/** Engine input: 16 kHz, mono, 16-bit PCM WAV. */
export async function decodeToWav(input: string, output: string, signal?: AbortSignal): Promise<void> {
  try {
    await runTool('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', input, '-vn', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', '-f', 'wav', output], { signal });
  } catch (e) {
    if (e instanceof ToolError) throw new MediaError(`The media file could not be decoded: ${lastLine(e.stderr) || e.message}.`);
    throw e;
  }
}

/** The low-bitrate copy kept for the editors (keep_source): 32 kb/s mono MP3, which every browser plays. */
export async function encodeKeptCopy(input: string, output: string, signal?: AbortSignal): Promise<void> {
  await runTool('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', input, '-vn', '-ac', '1', '-ar', '22050', '-c:a', 'libmp3lame', '-b:a', '32k', output], { signal });
}

export interface Probe {
  durationSec: number;
  hasVideo: boolean;
  hasAudio: boolean;
}

export async function probe(input: string, signal?: AbortSignal): Promise<Probe> {
  let stdout: string;
  try {
    ({ stdout } = await runTool('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', input], { signal }));
  } catch (e) {
    if (e instanceof ToolError) throw new MediaError(`The media file could not be read: ${lastLine(e.stderr) || e.message}.`);
    throw e;
  }
  const info = JSON.parse(stdout) as { format?: { duration?: string }; streams?: { codec_type?: string; duration?: string }[] };
  const streams = info.streams ?? [];
  const duration = Number(info.format?.duration ?? streams.find((s) => s.duration)?.duration ?? 0);
  return {
    durationSec: Number.isFinite(duration) ? duration : 0,
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
    hasVideo: streams.some((s) => s.codec_type === 'video' && s.duration !== undefined),
  };
}

function lastLine(s: string): string {
  return s.trim().split('\n').filter(Boolean).at(-1)?.replace(/^.*?: /, '').trim() ?? '';
}
