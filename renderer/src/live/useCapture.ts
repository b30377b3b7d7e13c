/**
 * Capture for live transcription: getUserMedia on the chosen input, an AudioContext at 16 kHz and
 * the pcm-capture AudioWorklet (public/pcm-worklet.js), which hands over 100 ms of 16-bit samples
 * at a time (as bytes, as they cross the bridge) with their level. The inputs are listed by the browser: on Linux a "Monitor of …"
 * input is the computer's own sound (a call, a video).
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export interface CaptureInput {
  deviceId: string;
  label: string;
}

export function useInputs(): { inputs: CaptureInput[]; refresh: () => void } {
  const [inputs, setInputs] = useState<CaptureInput[]>([]);
  const refresh = useCallback(() => {
    void navigator.mediaDevices
      ?.enumerateDevices()
      .then((all) => setInputs(all.filter((d) => d.kind === 'audioinput').map((d, i) => ({ deviceId: d.deviceId, label: d.label || (d.deviceId === 'default' ? 'Default microphone' : `Microphone ${i + 1}`) }))))
      .catch(() => setInputs([]));
  }, []);
  useEffect(() => {
    refresh();
    navigator.mediaDevices?.addEventListener('devicechange', refresh);
    return () => navigator.mediaDevices?.removeEventListener('devicechange', refresh);
  }, [refresh]);
  return { inputs, refresh };
}

export interface Capture {
  /** 0..1, the loudest sample of the last 100 ms. */
  level: number;
  running: boolean;
  start(deviceId: string | null, onPcm: (pcm: Uint8Array<ArrayBuffer>) => void): Promise<void>;
  stop(): void;
}

export function useCapture(): Capture {
  const [level, setLevel] = useState(0);
  const [running, setRunning] = useState(false);
  const parts = useRef<{ ctx: AudioContext; stream: MediaStream } | null>(null);

  const stop = useCallback(() => {
    const p = parts.current;
    parts.current = null;
    if (!p) return;
    p.stream.getTracks().forEach((t) => t.stop());
    void p.ctx.close();
    setRunning(false);
    setLevel(0);
  }, []);

  const start = useCallback(
    async (deviceId: string | null, onPcm: (pcm: Uint8Array<ArrayBuffer>) => void) => {
      stop();
      const stream = await navigator.mediaDevices.getUserMedia({
        audio: { ...(deviceId ? { deviceId: { exact: deviceId } } : {}), channelCount: 1, echoCancellation: false, noiseSuppression: false, autoGainControl: false },
      });
      const ctx = new AudioContext({ sampleRate: 16_000 });
      try {
        await ctx.audioWorklet.addModule('./pcm-worklet.js');
        const node = new AudioWorkletNode(ctx, 'pcm-capture', { numberOfInputs: 1, numberOfOutputs: 0 });
        node.port.onmessage = (e: MessageEvent<{ pcm: ArrayBuffer; peak: number }>) => {
          setLevel(e.data.peak);
          onPcm(new Uint8Array(e.data.pcm));
        };
        ctx.createMediaStreamSource(stream).connect(node);
      } catch (e) {
        stream.getTracks().forEach((t) => t.stop());
        void ctx.close();
        throw e;
      }
      parts.current = { ctx, stream };
      setRunning(true);
    },
    [stop],
  );

  useEffect(() => stop, [stop]);
  return { level, running, start, stop };
}
