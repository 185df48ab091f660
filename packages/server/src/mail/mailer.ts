import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { newId } from '../internal/ids.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(m: MailMessage): Promise<{ messageId: string; path?: string }>;
}

/**
 * SMTP (nodemailer) when `mailUrl` is set; otherwise each message is written as an RFC 5322
 * `<timestamp>-<id>.eml` file into `outboxDir` (open it in any mail client, or read the link from it).
 */
export function createMailer(opts: {
  mailUrl?: string | undefined;
  from: string;
  outboxDir: string;
}): Mailer {
  if (opts.mailUrl) {
    const smtp = nodemailer.createTransport(opts.mailUrl);
    return {
      async send(m) {
        const info = await smtp.sendMail({ from: opts.from, ...m });
        return { messageId: String(info.messageId) };
      },
    };
  }
  return {
    async send(m) {
      const messageId = `<${newId()}@${opts.from.match(/@([^>\s]+)/)?.[1] ?? 'travel.local'}>`;
      await mkdir(opts.outboxDir, { recursive: true });
      const file = join(opts.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${newId()}.eml`);
      await writeFile(file, renderEml({ ...m, from: opts.from, messageId, date: new Date() }));
      return { messageId, path: file };
    },
  };
}

const encodeHeader = (v: string) =>
  /^[\x20-\x7e]*$/.test(v) ? v : `=?UTF-8?B?${Buffer.from(v, 'utf8').toString('base64')}?=`;

/**
 * RFC 5322 text with an 8bit plain-text body: links stay on one line (no quoted-printable soft breaks),
 * so they can be copied straight out of the file. Lines are CRLF and far below the 998-octet limit.
 */
export function renderEml(m: MailMessage & { from: string; messageId: string; date: Date }): string {
  const headers = [
    `From: ${m.from}`,
    `To: ${m.to}`,
    `Subject: ${encodeHeader(m.subject)}`,
    `Date: ${m.date.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: ${m.messageId}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
  ];
  const body = m.text.replace(/\r?\n/g, '\r\n');
  return `${headers.join('\r\n')}\r\n\r\n${body}`;
}

/** For tests: keeps messages in memory. */
export class MemoryMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(m: MailMessage) {
    this.sent.push(m);
    return { messageId: `<${newId()}@memory>` };
  }
}
