/**
 * Share by e-mail says what it did. With a mail server (S2T_SMTP_URL) the message goes through
 * SMTP to a real server started here (smtp-server), signed in with the URL's credentials; without
 * one it is saved as a draft and the answer says "not sent", with the draft's path and the link;
 * a mail server that cannot be reached is an error that names it, not a "sent".
 */
import { readFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopAndRemove, type RunningService } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';
import { must } from '../answers';
import { client, docOf, jobDone, uploadedFileId, type Client } from '../work/helpers';

const STT = '/api/v3/speech-to-text';
const SRT = '1\n00:00:00,000 --> 00:00:01,000\nHello there.\n';

interface Received {
  from: string;
  to: string[];
  raw: string;
  user: string | null;
}

const received: Received[] = [];
let smtp: SMTPServer;
let smtpPort: number;
const services: RunningService[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, cb) {
      if (auth.username === 'mailer' && auth.password === 's3cret pass') cb(null, { user: auth.username });
      else cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8'), user: (session.user as string | undefined) ?? null });
        cb();
      });
    },
  });
  await new Promise<void>((res) => smtp.listen(0, '127.0.0.1', res));
  smtpPort = (smtp.server.address() as { port: number }).port;
}, 30_000);

afterAll(async () => {
  await new Promise<void>((res) => smtp.close(() => res()));
  for (const s of services) await stopAndRemove(s);
});

/** A service (with this environment) holding one transcript; answers a client and the document's path. */
async function serviceWithDocument(env: NodeJS.ProcessEnv): Promise<{ c: Client; svc: RunningService; doc: string }> {
  const svc = await startService({ env });
  services.push(svc);
  const c = await client(svc.url);
  const fileId = await uploadedFileId(c, new Uint8Array(readFileSync(await speechWav('hello there'))), 'hello.wav');
  const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en', session_mode: 'upload', transcript_text: SRT });
  const done = await jobDone(c, job.body.job_id);
  expect(done.status, done.error ?? '').toBe('completed');
  const docs = (await c.json('batch.jobResult', `/api/v3/batch/jobs/${job.body.job_id}/result`)).body.documents;
  const id = docOf(docs, 'document').id;
  return { c, svc, doc: `${STT}/session/${done.metadata.session_id}/document/${id}` };
}

describe('share by e-mail', () => {
  it('with a mail server: sent through SMTP with its credentials, to the person, carrying the link', async () => {
    const { c, doc } = await serviceWithDocument({ S2T_SMTP_URL: `smtp://mailer:${encodeURIComponent('s3cret pass')}@127.0.0.1:${smtpPort}`, S2T_SMTP_FROM: 'Team <team@example.org>' });
    const r = await c.json('documents.shareEmail', `${doc}/share/email`, { email: 'colleague@example.com', message: 'Please check.' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ sent: true, delivery: 'smtp' });
    expect(r.body.draft_path).toBeUndefined();
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail.to).toEqual(['colleague@example.com']);
    expect(mail.from).toBe('team@example.org');
    expect(mail.user).toBe('mailer');
    // Quoted-printable: soft line breaks and =XX escapes.
    const body = mail.raw.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    expect(body).toContain('Please check.');
    expect(body).toContain(must(r.body.link_url, 'link_url'));
    expect(mail.raw).toMatch(/^Subject: Shared transcript: /m);
  });

  it('without one: not sent, saved as a draft at the path it answers, with the link and where it opens', async () => {
    const { c, svc, doc } = await serviceWithDocument({ S2T_SMTP_URL: '' });
    const before = received.length;
    const r = await c.json('documents.shareEmail', `${doc}/share/email`, { email: 'colleague@example.com', message: 'Please check.' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ sent: false, delivery: 'draft', local_only: true });
    const draft = must(r.body.draft_path, 'draft_path');
    expect(draft.startsWith(join(svc.dataDir, 'mail-spool'))).toBe(true);
    expect(existsSync(draft)).toBe(true);
    expect(readFileSync(draft, 'utf8')).toMatch(/^To: colleague@example\.com$/m);
    expect(must(r.body.link_url, 'link_url')).toContain(`${svc.url}/transcripts/shared/`);
    expect(received.length).toBe(before);
  });

  it('a mail server that cannot be reached: an error naming it, not "sent"', async () => {
    // A port nobody listens on: taken and let go at once.
    const probe = createServer();
    await new Promise<void>((res) => probe.listen(0, '127.0.0.1', res));
    const closed = (probe.address() as { port: number }).port;
    await new Promise((res) => probe.close(res));
    const { c, doc } = await serviceWithDocument({ S2T_SMTP_URL: `smtp://127.0.0.1:${closed}` });
    const r = await c.json('POST', `${doc}/share/email`, { email: 'colleague@example.com', message: '' });
    expect(r.status).toBe(502);
    expect(r.text).toContain(`The mail server 127.0.0.1:${closed} did not take the message`);
  });
});
