// The live-capture AudioWorklet (renderer/src/live/useCapture.ts). Its AudioContext runs at 16 kHz,
// so Chromium resamples the input (with its own low-pass filter); here each block becomes 16-bit
// little-endian samples, sent on every 100 ms with the block's level for the meter.
const SEND_SAMPLES = 1600;

class PcmCapture extends AudioWorkletProcessor {
  constructor() {
    super();
    this.buffer = new Int16Array(SEND_SAMPLES);
    this.length = 0;
    this.peak = 0;
  }

  process(inputs) {
    const channels = inputs[0];
    if (!channels || channels.length === 0) return true;
    const n = channels[0].length;
    for (let i = 0; i < n; i++) {
      let v = 0;
      for (const c of channels) v += c[i];
      v /= channels.length;
      const a = Math.abs(v);
      if (a > this.peak) this.peak = a;
      this.buffer[this.length++] = Math.max(-32768, Math.min(32767, Math.round(v * 32767)));
      if (this.length === SEND_SAMPLES) {
        this.port.postMessage({ pcm: this.buffer.buffer, peak: this.peak }, [this.buffer.buffer]);
        this.buffer = new Int16Array(SEND_SAMPLES);
        this.length = 0;
        this.peak = 0;
      }
    }
    return true;
  }
}

registerProcessor('pcm-capture', PcmCapture);
