/**
 * Where the mail of accounts goes: an SMTP server (nodemailer), or a file (`MARKETLENS_MAIL_FILE`,
 * owner-only, each mail appended), so a developer can follow a link without a mail server. A mail
 * holds a link that signs someone in or resets a password: it is never written to the log, nor is
 * its address; the log says only that a mail was written, and where.
 */
import { appendFileSync, chmodSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Transporter } from 'nodemailer';

/** One plain-text mail. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail; rejects when the message was not accepted for delivery. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Releases connections (SMTP); idempotent. */
  close?(): void;
}

/** The mail settings: `MARKETLENS_SMTP_URL`, `MARKETLENS_MAIL_FILE` and `MARKETLENS_MAIL_FROM`. */
export interface MailConfig {
  /** `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://...:465`; null: none. */
  smtpUrl: string | null;
  /** A file each mail is appended to (created 0600) when there is no SMTP server; null: none. */
  file?: string | null;
  /** The From address, `Name <address>` or a bare address. */
  from: string;
}

export const DEFAULT_MAIL_FROM = 'marketlens <no-reply@marketlens.local>';

/**
 * A mailer that appends each message to `file` (created owner-only, 0600, in a folder it creates
 * 0700), one mail after another separated by a `From ` line as in an mbox, and logs through
 * `write` only that a mail was written there.
 */
export function fileMailer(file: string, from: string, write: (line: string) => void): Mailer {
  return {
    async send(m) {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      const text = [
        `From marketlens ${new Date().toUTCString()}`,
        `From: ${from}`,
        `To: ${m.to}`,
        `Subject: ${m.subject}`,
        '',
        m.text,
        '',
        '',
      ].join('\n');
      appendFileSync(file, text, { mode: 0o600 });
      // A file made by someone else keeps its owner; its mode is narrowed all the same.
      chmodSync(file, 0o600);
      write(`a mail was appended to ${file}`);
    },
  };
}

/**
 * A mailer that sends nothing and says so (without the address or the message): an app built
 * without a mail configuration (tests, scripts).
 */
export function droppingMailer(write: (line: string) => void): Mailer {
  return {
    async send() {
      write(
        'a mail was not sent: no SMTP server or mail file is configured (MARKETLENS_SMTP_URL, MARKETLENS_MAIL_FILE)',
      );
    },
  };
}

/** The reason of a failed send, for the log: the error's class and code, never its text (which may quote the address). */
export function mailFailure(err: unknown): string {
  if (!(err instanceof Error)) return 'unknown error';
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? `${err.name} ${code}` : err.name;
}

/**
 * A mailer that delivers through the SMTP server of `url`, from `from`. The SMTP client is loaded
 * and connected on the first send: a process that never mails never loads it.
 */
export function smtpMailer(url: string, from: string): Mailer {
  let transport: Promise<Transporter> | null = null;
  const open = async (): Promise<Transporter> => {
    const { createTransport } = await import('nodemailer');
    // Bounded waits: a mail server that does not answer must not hold sends for minutes.
    return createTransport(
      { url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
      { from },
    );
  };
  return {
    async send(m) {
      transport ??= open();
      await (await transport).sendMail({ to: m.to, subject: m.subject, text: m.text });
    },
    close() {
      void transport?.then(
        (t) => t.close(),
        () => {},
      );
    },
  };
}

/**
 * The mailer a configuration names: SMTP when `smtpUrl` is set, else the mail file when `file` is,
 * else none (mail is dropped, and `write` says so without the message).
 */
export function mailerOf(config: MailConfig | undefined, write: (line: string) => void): Mailer {
  if (config?.smtpUrl) return smtpMailer(config.smtpUrl, config.from);
  if (config?.file) return fileMailer(config.file, config.from, write);
  return droppingMailer(write);
}

/** Checks `MARKETLENS_SMTP_URL`: an smtp: or smtps: URL with a host. */
export function checkSmtpUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('MARKETLENS_SMTP_URL must be an smtp:// or smtps:// URL');
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    throw new Error('MARKETLENS_SMTP_URL must be an smtp:// or smtps:// URL with a host');
  }
  return raw;
}
