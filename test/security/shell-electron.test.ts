/**
 * The Electron shell, as built (dist/main/index.js) under the fake `electron`
 * module, and the packaging config. The embedded service runs in a utility process (the RunAsNode
 * fuse is off), its credential goes over the message channel; permission checks and device
 * permissions are refused beside permission requests; redirects and subframe navigations are
 * held like navigations; the fuses are set.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runFakeElectronMain, type FakeElectronReport } from '../fixtures/fake-electron/run';
import { ROOT } from '../helpers/service';

let report: FakeElectronReport;
beforeAll(async () => {
  const run = await runFakeElectronMain();
  expect(run.code, run.stderr).toBe(0);
  report = run.report;
}, 90_000);

describe('Electron shell', () => {
  it('starts the embedded service with utilityProcess.fork, not ELECTRON_RUN_AS_NODE, and hands the credential over its channel', () => {
    expect(report.utility).toHaveLength(1);
    const [service] = report.utility;
    expect(service.modulePath).toBe(join(ROOT, 'dist/service/cli.js'));
    // No credential in argv; nothing added to the environment.
    expect(service.args.filter((a) => a.startsWith('--'))).toEqual(['--port', '--data', '--owner-from-parent', '--quiet']);
    expect(service.envAdded).toEqual([]);
    expect(service.posted).toEqual([['email', 'password']]);
    // ...and main signed in with it: the window's first question finds the user signed in.
    expect(report.ipc.trusted).toMatchObject({ ok: true, value: { signedIn: true, user: { email: 'owner@s2t.local' } } });
  });

  it('refuses permission checks and device permissions, not only permission requests', () => {
    expect(report.permissions.map((p) => p.granted)).toEqual([false, false, false]);
    expect(report.permissionChecks.length).toBe(5);
    expect(report.permissionChecks.every((p) => p.granted === false)).toBe(true);
    expect(report.devicePermissions.length).toBe(3);
    expect(report.devicePermissions.every((p) => p.granted === false)).toBe(true);
  });

  it('holds redirects and subframe navigations away from the app like navigations', () => {
    for (const event of ['will-navigate', 'will-redirect', 'will-frame-navigate'] as const) {
      expect(report.navigation[event], event).toEqual({ toSelfPrevented: false, toElsewherePrevented: true });
    }
  });

  it('sets the Electron fuses in electron-builder.yml', () => {
    const cfg = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8'));
    expect(cfg.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
    expect(cfg.asar).toBe(true);
  });
});
