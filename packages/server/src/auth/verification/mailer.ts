/**
 * Where the mail of accounts goes: an SMTP server (nodemailer), or, with none configured (the
 * embedded default), the log, so a developer can follow a verification link without a mail server.
 */
import { createTransport } from 'nodemailer';

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

/** The mail settings: `MARKETLENS_SMTP_URL` and `MARKETLENS_MAIL_FROM`. */
export interface MailConfig {
  /** `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://...:465`; null: the log. */
  smtpUrl: string | null;
  /** The From address, `Name <address>` or a bare address. */
  from: string;
}

export const DEFAULT_MAIL_FROM = 'marketlens <no-reply@marketlens.local>';

/** A mailer that writes each message, link included, as one log entry. */
export function logMailer(write: (line: string) => void): Mailer {
  return {
    async send(m) {
      write(`mail to ${m.to} (no SMTP server configured; set MARKETLENS_SMTP_URL): ${m.subject}\n${m.text}`);
    },
  };
}

/** A mailer that delivers through the SMTP server of `url`, from `from`. */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = createTransport(
    // Bounded waits: a mail server that does not answer must not hold sends for minutes.
    { url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
    { from },
  );
  return {
    async send(m) {
      await transport.sendMail({ to: m.to, subject: m.subject, text: m.text });
    },
    close() {
      transport.close();
    },
  };
}

/** The mailer a configuration names: SMTP when `smtpUrl` is set, else the log through `write`. */
export function mailerOf(config: MailConfig | undefined, write: (line: string) => void): Mailer {
  return config?.smtpUrl ? smtpMailer(config.smtpUrl, config.from) : logMailer(write);
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
