/**
 * The app's end of single sign-on (RFC 8252, section 7.3): a one-shot HTTP listener on 127.0.0.1
 * and a random port that receives the identity provider's redirect with the access token. A
 * redirect without our `state` is refused (another page on this computer cannot hand us its
 * token), the listener closes after the one good redirect or at its deadline, and the browser
 * gets a small page saying what happened.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CALLBACK_PATH = '/s2t/sso/callback';
/** Long enough to type a password and a code on the identity page; short enough that a forgotten tab does not hold a port. */
export const SSO_TIMEOUT_MS = 5 * 60 * 1000;

export interface LoopbackRedirect {
  /** Where the identity provider sends the browser back to. */
  redirectUri: string;
  state: string;
  /** The access token, or an Error saying why not (timed out, the provider refused, cancelled). */
  token: Promise<string>;
  /** Stops waiting (a new sign-in started, or the app closes); `token` rejects. */
  cancel(): void;
  /** Resolves once the port is closed. */
  closed: Promise<void>;
}

export class SsoError extends Error {}

function page(res: ServerResponse, status: number, title: string, text: string): void {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font:16px system-ui,sans-serif;max-width:30rem;margin:4rem auto;padding:0 1rem;color:#1d2433}</style></head>
<body><h1>${title}</h1><p id="message">${text}</p></body></html>`;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    connection: 'close',
  });
  res.end(body);
}

const sameState = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export async function startLoopbackRedirect(opts: { timeoutMs?: number } = {}): Promise<LoopbackRedirect> {
  const state = randomBytes(24).toString('base64url');
  let settle!: { resolve: (t: string) => void; reject: (e: Error) => void };
  const token = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  token.catch(() => {}); // the caller may never look (cancelled); no unhandled rejection
  let done = false;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH || done) {
      page(res, 404, 'Not found', 'Nothing is waiting here. Start the sign-in again from S2T Desktop.');
      return;
    }
    // Not ours: keep waiting for the real redirect; a stray request must not end the sign-in.
    if (!sameState(url.searchParams.get('state') ?? '', state)) {
      page(res, 400, 'Sign-in refused', 'This sign-in was not started by S2T Desktop on this computer, so the app did not accept it.');
      return;
    }
    const accessToken = url.searchParams.get('access_token');
    const problem = url.searchParams.get('error_description') ?? url.searchParams.get('error');
    if (accessToken) {
      page(res, 200, 'Signed in', 'You are signed in to S2T Desktop. You can close this tab and go back to the app.');
      finish(null, accessToken);
    } else {
      page(res, 400, 'Sign-in failed', 'The identity provider did not sign you in. Go back to S2T Desktop and try again.');
      finish(new SsoError(problem ? `The identity provider did not sign you in (${problem.slice(0, 200)}).` : 'The identity provider did not sign you in.'));
    }
  });
  const closed = new Promise<void>((r) => server.once('close', () => r()));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // A sign-in left waiting must not keep the app (or a test) alive: quitting ends it.
  server.unref();
  const { port } = server.address() as AddressInfo;
  const timer = setTimeout(() => finish(new SsoError('The single sign-on took too long and was stopped. Start it again when you are ready.')), opts.timeoutMs ?? SSO_TIMEOUT_MS);
  timer.unref();

  function finish(err: Error | null, accessToken?: string): void {
    if (done) return;
    done = true;
    clearTimeout(timer);
    // close() waits for keep-alive sockets; the answer above was sent with connection: close.
    server.close();
    server.closeIdleConnections();
    if (err) settle.reject(err);
    else settle.resolve(accessToken!);
  }

  return {
    redirectUri: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    state,
    token,
    cancel: () => finish(new SsoError('The single sign-on was cancelled.')),
    closed,
  };
}
