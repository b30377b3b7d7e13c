/**
 * A share e-mail goes through SMTP when the service has a mail server (--smtp-url or S2T_SMTP_URL,
 * e.g. smtp://user:pass@mail.example.org:587 or smtps://…:465); without one it is saved as a draft
 * (an .eml in the mail spool, mail/spool.ts), and the answer says which, so nobody is told a
 * message went that did not. A server that refuses or cannot be reached is an error with its
 * reason: the link stays made, and sending can be tried again.
 */
import { spoolMail, type SpoolMessage } from './spool';

export interface SmtpConfig {
  /** smtp: or smtps: URL; may carry the user and password, so it is never logged or answered. */
  url: string;
  /** The From: address of what the service sends. */
  from: string;
}

export const DEFAULT_FROM = 'S2T Desktop <no-reply@s2t.localhost>';

/** --smtp-url and --smtp-from (or S2T_SMTP_URL, S2T_SMTP_FROM); unset: no mail server, drafts only. */
export function parseSmtp(rawUrl: string | undefined, rawFrom: string | undefined): SmtpConfig | undefined {
  if (!rawUrl) return undefined;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new Error('--smtp-url must be an smtp:// or smtps:// URL');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error(`--smtp-url must be an smtp:// or smtps:// URL (got ${url.protocol})`);
  if (!url.hostname) throw new Error('--smtp-url names no mail server');
  return { url: url.toString(), from: rawFrom?.trim() || DEFAULT_FROM };
}

export type Delivery = { delivery: 'smtp'; messageId: string } | { delivery: 'draft'; messageId: string; path: string };

export class MailDeliveryError extends Error {}

/** The mail server's address for messages: host and port, never the credentials in its URL. */
const serverName = (url: string) => {
  const u = new URL(url);
  return `${u.hostname}:${u.port || (u.protocol === 'smtps:' ? 465 : 587)}`;
};

export async function deliverMail(dataDir: string, smtp: SmtpConfig | undefined, m: SpoolMessage): Promise<Delivery> {
  if (!smtp) return { delivery: 'draft', ...(await spoolMail(dataDir, m)) };
  const u = new URL(smtp.url);
  // Loaded on the first message: most services never send one, and nodemailer is large.
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport({
    host: u.hostname,
    port: Number(u.port) || (u.protocol === 'smtps:' ? 465 : 587),
    secure: u.protocol === 'smtps:',
    ...(u.username ? { auth: { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } } : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  try {
    const info = await transport.sendMail({ from: m.from ?? smtp.from, to: m.to, subject: m.subject, text: m.text, headers: { 'X-Mailer': 's2t-local-service' } });
    return { delivery: 'smtp', messageId: info.messageId };
  } catch (e) {
    const reason = (e as Error).message.split('\n')[0];
    throw new MailDeliveryError(`The mail server ${serverName(smtp.url)} did not take the message: ${reason}`);
  } finally {
    transport.close();
  }
}
