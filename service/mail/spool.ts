/**
 * Share by e-mail without SMTP: the message is composed as a real RFC 5322 / MIME message
 * (nodemailer's MailComposer) and written to DATA/mail-spool/<time>-<id>.eml, one file a message,
 * for a person or a mail tool to pick up.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SpoolMessage {
  to: string;
  subject: string;
  text: string;
  /** Our From: address (the local service has no mail domain). */
  from?: string;
}

export function mailSpoolDir(dataDir: string): string {
  const dir = join(dataDir, 'mail-spool');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Writes the message atomically (temp file, then rename) and returns its Message-ID and path. */
export async function spoolMail(dataDir: string, m: SpoolMessage): Promise<{ messageId: string; path: string }> {
  const id = randomBytes(12).toString('hex');
  const messageId = `<${id}@s2t.localhost>`;
  // Loaded on the first draft, not at the service's start (nodemailer is large).
  const { default: MailComposer } = await import('nodemailer/lib/mail-composer');
  const mail = new MailComposer({
    from: m.from ?? 'S2T Desktop <no-reply@s2t.localhost>',
    to: m.to,
    subject: m.subject,
    text: m.text,
    messageId,
    date: new Date(),
    headers: { 'X-Mailer': 's2t-local-service' },
  });
  const raw = await mail.compile().build();
  const dir = mailSpoolDir(dataDir);
  const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${id}.eml`;
  const tmp = join(dir, `.${name}.tmp`);
  writeFileSync(tmp, raw, { mode: 0o600 });
  const path = join(dir, name);
  renameSync(tmp, path);
  return { messageId, path };
}
