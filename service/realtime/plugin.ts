/**
 * The realtime area: WebSocket upgrades at /api/v3/realtime and the vendor's /realtime and
 * /v2/realtime. A request is refused before the upgrade (an HTTP answer with a JSON error) when
 * its credential is not an API token of type realtime, when it connects too often, or when its
 * organization has as many streams open as allowed.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { REALTIME_KEY_HEADER, REALTIME_PATHS } from '../../common/api/realtime';
import { fromApiToken, type UserPrincipal } from '../auth/principal';
import { decodeSupports } from '../engines/decode';
import { HttpError } from '../http/errors';
import type { AreaPlugin } from '../http/plugin';
import { DecoderStock, decoderProblem } from './decoder';
import { interruptedStreams } from './finish';
import { LiveSessions } from './lingering';
import { ConnectRate, DEFAULT_LIMITS, StreamCount, type RealtimeLimits } from './limits';
import { runStream } from './stream';

function answer(socket: Duplex, status: number, error: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ error });
  const reason = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 421: 'Misdirected Request', 429: 'Too Many Requests', 503: 'Service Unavailable' }[status] ?? 'Error';
  const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`);
}

const realtime: AreaPlugin = async (app, { ctx }) => {
  const limits: RealtimeLimits = { ...DEFAULT_LIMITS, ...ctx.tuning?.realtime };
  const stock = new DecoderStock();
  const rate = new ConnectRate(limits);
  const open = new StreamCount(limits);
  const sessions = new LiveSessions(ctx, limits.lingerMs);
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxFrameBytes, perMessageDeflate: false });

  const admit = (req: IncomingMessage): { principal: UserPrincipal; language: string; resume?: string } => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const language = url.searchParams.get('language') ?? '';
    const key = req.headers[REALTIME_KEY_HEADER];
    const wait = rate.hit(typeof key === 'string' && key ? `k:${key.slice(0, 12)}` : `ip:${req.socket.remoteAddress ?? ''}`);
    if (wait > 0) throw new HttpError(429, { error: `Too many connects; try again in ${wait} s.` }, { 'retry-after': String(wait) });
    if (typeof key !== 'string' || !key) throw new HttpError(401, { error: `The ${REALTIME_KEY_HEADER} header is missing: send an API token of type realtime.` });
    let principal: UserPrincipal;
    try {
      principal = fromApiToken(ctx, key, 'realtime');
    } catch (e) {
      throw new HttpError(401, { error: `${(e as Error).message}.` });
    }
    if (!language) throw new HttpError(400, { error: 'The language query parameter is missing (a language model key, e.g. language=en).' });
    if (!decodeSupports(language)) throw new HttpError(400, { error: `The local speech engine has no model for language "${language}"; only English (en) is installed.` });
    const problem = decoderProblem();
    if (problem) throw new HttpError(503, { error: problem });
    if (!open.tryOpen(principal.orgId)) throw new HttpError(429, { error: `Your organization already has ${limits.streamsPerOrg} live streams open; stop one first.` }, { 'retry-after': '5' });
    const resume = url.searchParams.get('resume') ?? undefined;
    if (resume !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(resume)) throw new HttpError(400, { error: 'resume must be a session id.' });
    return { principal, language, resume };
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '/').split('?')[0];
    if (!(REALTIME_PATHS as readonly string[]).includes(path)) return; // another upgrade handler's, or none
    let admitted: ReturnType<typeof admit>;
    try {
      admitted = admit(req);
    } catch (e) {
      if (e instanceof HttpError) answer(socket, e.status, e.message, e.headers);
      else answer(socket, 500, 'internal error');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      runStream(ctx, ws, admitted.principal, { language: admitted.language, resume: admitted.resume, stock, limits, sessions }, () => open.close(admitted.principal.orgId));
    });
  };

  app.addHook('onReady', async () => {
    // Streams cut by a stop of the service: their clients may resume them; otherwise they are decoded as uploads.
    const cut = interruptedStreams(ctx);
    for (const id of cut) sessions.wait(id, false);
    if (cut.length > 0) ctx.log.info('live streams cut by a stop wait for their clients', { count: cut.length });
    app.server.on('upgrade', onUpgrade);
    // No decoder is loaded here: one holds about 90 MB, and most services never stream. The first
    // stream loads its own (a second or two before "listening"), and the stock keeps them from then on.
  });

  app.addHook('onClose', async () => {
    app.server.off('upgrade', onUpgrade);
    sessions.stop();
    for (const ws of wss.clients) ws.close(1001, 'the service is stopping');
    await new Promise<void>((r) => wss.close(() => r()));
    await stock.closeAll();
  });
};

export const realtimePlugin = realtime;
