/**
 * Credentials for the watcher. The desktop app hands in its own (the core's session); the headless
 * daemon signs in with a username and password it keeps in memory only. Either way the watcher
 * needs two things: the current access token, and a way to get a fresh one after a 401, so that
 * an upload interrupted by an expired token resumes instead of starting over.
 */
import type { ApiClient, AuthSource } from '../api/client';

export interface WatchAuth {
  token(): Promise<string | null>;
  /** Get a new token after a 401; false when that is not possible (signed out for good). */
  refresh(): Promise<boolean>;
}

/** Signs in with a password and signs in again whenever the token is refused. Nothing touches disk. */
export class PasswordAuth implements WatchAuth {
  private current: Promise<string | null> | null = null;
  private batch: Promise<string | null> | null = null;
  private client: ApiClient | null = null;

  constructor(
    private readonly username: string,
    private readonly password: string,
  ) {}

  attach(client: ApiClient): void {
    this.client = client;
  }

  token(): Promise<string | null> {
    this.current ??= this.login();
    return this.current;
  }

  async refresh(): Promise<boolean> {
    this.current = this.login();
    return (await this.current) !== null;
  }

  private async login(): Promise<string | null> {
    if (!this.client) throw new Error('PasswordAuth used before attach(client)');
    const res = await this.client.call('auth.login', { query: { login_type: 'token' }, body: { username: this.username, password: this.password } });
    if (!res.access_token) {
      this.current = null;
      throw new Error(res.mfa_required ? 'this account needs a second factor; use an API token (S2T_TOKEN) for the watch daemon' : 'sign-in refused');
    }
    return res.access_token;
  }

  /** The same credentials as the AuthSource the ApiClient wants. */
  asAuthSource(): AuthSource {
    return {
      accessToken: () => this.token(),
      batchKey: () => {
        this.batch ??= this.client!
          .call('tokens.create', { body: { name: 's2t-watch', type: 'batch', years_valid: 1 } })
          .then((t) => t.token_value ?? null);
        return this.batch;
      },
      invalidateBatchKey: async () => {
        this.batch = null;
      },
      unauthorized: () => {
        this.current = null;
      },
    };
  }
}

/** A fixed API token (S2T_TOKEN): nothing to refresh. */
export class TokenAuth implements WatchAuth {
  constructor(private readonly value: string) {}
  async token(): Promise<string | null> {
    return this.value;
  }
  async refresh(): Promise<boolean> {
    return false;
  }
  asAuthSource(): AuthSource {
    return { accessToken: async () => this.value, batchKey: async () => this.value, invalidateBatchKey: async () => {}, unauthorized: () => {} };
  }
}

/**
 * The app's own sign-in (the core's credentials). A refused token cannot be renewed here: the
 * watcher waits ("waiting for sign-in") until the person signs in again, then goes on with the
 * same upload. refresh() says whether the token changed since the one last handed out.
 */
export class SignedInAuth implements WatchAuth {
  private handedOut: string | null = null;

  constructor(private readonly accessToken: () => Promise<string | null>) {}

  async token(): Promise<string | null> {
    this.handedOut = await this.accessToken();
    return this.handedOut;
  }

  async refresh(): Promise<boolean> {
    const now = await this.accessToken();
    return now !== null && now !== this.handedOut;
  }
}
