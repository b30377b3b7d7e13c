/** Where an account streams live audio, and which pages Electron lets capture audio. */
import { describe, expect, it } from 'vitest';
import { checkRealtimeUrl, realtimeAddress, realtimeUrlOf } from '../../../main/live/realtime-url';
import { confSettingsFile } from '../../../main/platform/settings-file';
import { SettingsStore } from '../../../main/settings';
import { tempDir } from '../../helpers/service';
import { allowMediaCheck, allowMediaRequest } from '../../../main/platform/media-permission';

describe('realtime address', () => {
  it("is the service's own /api/v3/realtime over ws: or wss:, unless the account names one", () => {
    expect(realtimeUrlOf('http://127.0.0.1:4100')).toBe('ws://127.0.0.1:4100/api/v3/realtime');
    expect(realtimeUrlOf('https://s2t.example.com/base/')).toBe('wss://s2t.example.com/base/api/v3/realtime');
    expect(realtimeUrlOf('https://api.example.com', 'wss://live.example.com/v2/realtime')).toBe('wss://live.example.com/v2/realtime');
    // A stored address that no longer passes the checks (a hand-edited file) is not used.
    expect(realtimeUrlOf('https://api.example.com', 'ws://169.254.169.254/')).toBe('wss://api.example.com/api/v3/realtime');
  });

  it("a cloud's own: wss: (https: taken as wss:), never inward unless its service is there too", () => {
    const cloud = 'https://api.example.com';
    expect(checkRealtimeUrl('wss://live.example.com/v2/realtime', cloud)).toBe('wss://live.example.com/v2/realtime');
    expect(checkRealtimeUrl(' https://live.example.com/realtime ', cloud)).toBe('wss://live.example.com/realtime');
    const refused: [string, RegExp][] = [
      ['ws://live.example.com/realtime', /must be secure/],
      ['http://live.example.com/realtime', /must be secure/],
      ['ftp://live.example.com/', /starts with wss/],
      ['not an address', /not a web address/],
      ['wss://user:pw@live.example.com/', /no user name or password/],
      ['wss://live.example.com/realtime?language=en', /no \?query/],
      ['wss://127.0.0.1:4100/api/v3/realtime', /private network/],
      ['wss://localhost/realtime', /private network/],
      ['wss://169.254.169.254/latest', /private network/],
      ['wss://10.0.0.5/realtime', /private network/],
      ['wss://[::1]/realtime', /private network/],
      ['wss://[::ffff:192.168.1.2]/realtime', /private network/],
      ['wss://[fd00::1]/realtime', /private network/],
      ['wss://printer.local/realtime', /private network/],
    ];
    for (const [url, why] of refused) expect(() => checkRealtimeUrl(url, cloud), url).toThrow(why);
    // A service on this computer (a test or a self-hosted one) may stream on this computer, over ws: too.
    expect(checkRealtimeUrl('ws://127.0.0.1:4200/v2/realtime', 'http://127.0.0.1:4100')).toBe('ws://127.0.0.1:4200/v2/realtime');
    // One on the local network may not reach into this computer.
    expect(() => checkRealtimeUrl('wss://127.0.0.1:4200/', 'https://10.0.0.2')).toThrow(/this computer/);
  });

  it('is kept per service address in the settings file, and only a service added by address has one', () => {
    const settings = new SettingsStore(confSettingsFile(tempDir('s2t-live-settings-')));
    const a = realtimeAddress('https://api.example.com', 'cloud', settings);
    const b = realtimeAddress('https://other.example.com', 'cloud', settings);
    expect(a.get()).toEqual({ url: 'wss://api.example.com/api/v3/realtime', custom: null, usual: 'wss://api.example.com/api/v3/realtime', editable: true });
    expect(a.set('https://live.example.com/v2/realtime')).toMatchObject({ url: 'wss://live.example.com/v2/realtime', custom: 'wss://live.example.com/v2/realtime' });
    expect(() => a.set('wss://10.1.1.1/')).toThrow(/private network/);
    expect(a.get().custom).toBe('wss://live.example.com/v2/realtime');
    expect(b.get().custom).toBeNull();
    expect(settings.get().realtimeUrls).toEqual({ 'https://api.example.com': 'wss://live.example.com/v2/realtime' });
    expect(a.set(null).url).toBe('wss://api.example.com/api/v3/realtime');
    expect(settings.get().realtimeUrls).toEqual({});
    const local = realtimeAddress('http://127.0.0.1:4100', 'local', settings);
    expect(local.get().editable).toBe(false);
    expect(() => local.set('ws://127.0.0.1:9/')).toThrow(/own address/);
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
