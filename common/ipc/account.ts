/**
 * The account page and the sign-in steps beyond a password: who is signed in, API tokens,
 * two-factor, leaving the code step, and single sign-on through the system browser. Served by
 * main/ipc/handlers/account.ts (account.*) and main/ipc/handlers/auth.ts (auth.*).
 */
import { z } from 'zod';
import { TokenType, YearsValid } from '../api';

const Empty = z.object({});
const Done = z.object({ done: z.literal(true) });

export const AccountProfile = z.object({
  name: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
  /** local, or the single sign-on provider (microsoft). */
  identityProvider: z.string(),
  twoFactorActive: z.boolean(),
  serviceUrl: z.string(),
});
export type AccountProfile = z.infer<typeof AccountProfile>;

/** An API token as listed: its key, never its value. */
export const AccountToken = z.object({
  id: z.number(),
  name: z.string(),
  key: z.string(),
  type: TokenType,
  expires: z.string(),
  /** The token this app made for itself (its uploads use it): deleting it makes the app create another. */
  madeByApp: z.boolean(),
});
export type AccountToken = z.infer<typeof AccountToken>;

/** An account the app can switch to: this computer's own service, or a service by its address. */
export const AccountEntry = z.object({
  id: z.string(),
  kind: z.enum(['local', 'cloud']),
  serviceUrl: z.string(),
  /** Who last signed in there; null before anyone did. */
  email: z.string().nullable(),
});
export type AccountEntry = z.infer<typeof AccountEntry>;
export const AccountList = z.object({ active: z.string(), accounts: z.array(AccountEntry) });
export type AccountList = z.infer<typeof AccountList>;

/** A second-factor proof: a current code from the authenticator app, or (where the service takes one) a backup code. */
const Code = z.object({ code: z.string().trim().min(1).max(64) });

export const accountChannels = {
  /** Leaves the code step of a sign-in: main forgets the password it held for it. */
  'auth.cancelMfa': { args: Empty, result: Done },
  /**
   * Starts single sign-on: a one-shot loopback listener waits for the identity provider's
   * redirect; the sign-in ends with auth.changed. `opened`: main opened the system browser;
   * otherwise (browser mode) the renderer opens `url` in a new tab.
   */
  'auth.ssoStart': { args: Empty, result: z.object({ url: z.string(), opened: z.boolean() }) },
  'account.profile': { args: Empty, result: AccountProfile },
  'account.tokens': { args: Empty, result: z.object({ tokens: z.array(AccountToken) }) },
  /** The full value comes back only here, once. */
  'account.createToken': {
    args: z.object({ name: z.string().trim().min(1).max(100), type: TokenType, yearsValid: YearsValid }),
    result: z.object({ token: AccountToken, value: z.string() }),
  },
  'account.deleteToken': { args: z.object({ tokenId: z.number().int() }), result: Done },
  /** A new pending authenticator secret; the QR code is a PNG data URL of its otpauth URI. */
  'account.mfaStart': { args: Empty, result: z.object({ qrCode: z.string(), secret: z.string() }) },
  /** Turns two-factor on with a code from the new secret; answers the first backup codes (shown once). */
  'account.mfaEnable': { args: Code, result: z.object({ backupCodes: z.array(z.string()) }) },
  /** New backup codes for a current code; the old ones stop working. */
  'account.mfaBackupCodes': { args: Code, result: z.object({ backupCodes: z.array(z.string()) }) },
  /** Turns two-factor off with a current code or an unused backup code. */
  'account.mfaDisable': { args: Code, result: Done },
  'accounts.list': { args: Empty, result: AccountList },
  /**
   * Checks that the address answers as the interface does, adds it (once) and makes it the active
   * account; its sign-in follows (auth.changed). Each account has its own cache.
   */
  'accounts.add': { args: z.object({ url: z.string().trim().min(1).max(2048) }), result: AccountList },
  /** Makes another known account the active one (auth.changed tells the app). */
  'accounts.switch': { args: z.object({ id: z.string().min(1).max(64) }), result: AccountList },
} as const;

/** Served by the backend's account switcher (main/auth/account-switch.ts), not by one account's core. */
export type AccountsChannelName = 'accounts.list' | 'accounts.add' | 'accounts.switch';
