/** Where an account streams live audio, and which pages Electron lets capture audio. */
import { describe, expect, it } from 'vitest';
import { realtimeUrlOf } from '../../../main/live/realtime-url';
import { allowMediaCheck, allowMediaRequest } from '../../../main/platform/media-permission';

describe('realtime address', () => {
  it("is the service's own /api/v3/realtime over ws: or wss:, unless the account names one", () => {
    expect(realtimeUrlOf('http://127.0.0.1:4100')).toBe('ws://127.0.0.1:4100/api/v3/realtime');
    expect(realtimeUrlOf('https://s2t.example.com/base/')).toBe('wss://s2t.example.com/base/api/v3/realtime');
    expect(realtimeUrlOf('https://api.example.com', 'wss://live.example.com/v2/realtime')).toBe('wss://live.example.com/v2/realtime');
  });
});

describe('media permission', () => {
  const page = 'file:///app/dist/renderer/index.html';
  it("grants audio capture to the app's own page only", () => {
    expect(allowMediaRequest('media', page, page, ['audio'])).toBe(true);
    expect(allowMediaRequest('media', 'https://evil.example/', page, ['audio'])).toBe(false);
    expect(allowMediaRequest('media', page, page, ['audio', 'video'])).toBe(false);
    expect(allowMediaRequest('geolocation', page, page, undefined)).toBe(false);
    expect(allowMediaCheck('media', page, page)).toBe(true);
    expect(allowMediaCheck('notifications', page, page)).toBe(false);
    expect(allowMediaCheck('media', 'https://evil.example/', page)).toBe(false);
  });
});
