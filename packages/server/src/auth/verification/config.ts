import { isAbsolute, join } from 'node:path';
import { type SettingsGroup, setting } from '../../platform/settings.js';
import { checkSmtpUrl, DEFAULT_MAIL_FROM, type MailConfig, type Mailer } from './mailer.js';

// The verification mail's slice of the server's configuration and collaborators (see `MarketlensServer` in platform/deps.ts).
declare global {
  namespace MarketlensServer {
    interface Config {
      /**
       * Whether addresses must be verified (`MARKETLENS_EMAIL_VERIFICATION`; on in production): sign-up
       * then opens no session and answers alike for taken addresses, unverified accounts cannot sign in,
       * and creating API keys, connections or alerts needs a verified address. Absent: not required.
       */
      emailVerification?: boolean;
      /** The mail of accounts (`MARKETLENS_SMTP_URL`, `MARKETLENS_MAIL_FROM`); absent: written to the log. */
      mail?: MailConfig;
    }
    interface Deps {
      /** Sends the mail of accounts (verification links); absent: the log (see `config.mail`). */
      mailer?: Mailer;
    }
  }
}

/**
 * `MARKETLENS_EMAIL_VERIFICATION` (`on`/`off`, `true`/`false`; default on in production, off
 * otherwise), `MARKETLENS_SMTP_URL`, `MARKETLENS_MAIL_FILE` (an absolute path each mail is appended
 * to, owner-only, where there is no SMTP server) and `MARKETLENS_MAIL_FROM`. In production with
 * verification on, one of the first two is required: sign-up mails a link, and mail is never
 * written to the log.
 */
export function verificationFromEnv(env: NodeJS.ProcessEnv): { emailVerification: boolean; mail: MailConfig } {
  const raw = env.MARKETLENS_EMAIL_VERIFICATION?.trim().toLowerCase() ?? '';
  const production = env.MARKETLENS_ENV?.trim() === 'production';
  let emailVerification: boolean;
  if (raw === '') emailVerification = production;
  else if (raw === 'on' || raw === 'true') emailVerification = true;
  else if (raw === 'off' || raw === 'false') emailVerification = false;
  else throw new Error(`MARKETLENS_EMAIL_VERIFICATION must be on or off, got '${raw}'`);
  const smtp = env.MARKETLENS_SMTP_URL?.trim();
  const file = env.MARKETLENS_MAIL_FILE?.trim();
  if (file && !isAbsolute(file)) throw new Error('MARKETLENS_MAIL_FILE must be an absolute path');
  if (production && emailVerification && !smtp && !file) {
    throw new Error(
      'production with email verification needs MARKETLENS_SMTP_URL (config key smtpUrl), or MARKETLENS_MAIL_FILE to write mail to an owner-only file; mail is never written to the log',
    );
  }
  const from = env.MARKETLENS_MAIL_FROM?.trim() || DEFAULT_MAIL_FROM;
  return { emailVerification, mail: { smtpUrl: smtp ? checkSmtpUrl(smtp) : null, file: file || null, from } };
}

/**
 * The verification mail's settings (MARKETLENS_EMAIL_VERIFICATION, MARKETLENS_SMTP_URL,
 * MARKETLENS_MAIL_FILE, MARKETLENS_MAIL_FROM). In development, mail with nowhere else to go is
 * appended to `mail.txt` in the data folder, never logged.
 */
export const VERIFICATION_SETTINGS: SettingsGroup = {
  owner: 'auth/verification/',
  // biome-ignore format: a table, one setting a line
  rows: [
    setting('emailVerification', 'MARKETLENS_EMAIL_VERIFICATION', 'string', 'on in production, off otherwise', '`on`: sign-up mails a verification link and answers alike for taken addresses; unverified accounts cannot sign in or create keys, connections or alerts'),
    setting('smtpUrl', 'MARKETLENS_SMTP_URL', 'string', 'none', 'SMTP server of the account mail: `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://...:465`; production with verification needs it or `mailFile`'),
    setting('mailFile', 'MARKETLENS_MAIL_FILE', 'string', '`mail.txt` in the data folder (development); none in production', 'absolute path of a file each mail is appended to, owner-only (0600), when there is no SMTP server; mail is never written to the log'),
    setting('mailFrom', 'MARKETLENS_MAIL_FROM', 'string', 'marketlens <no-reply@marketlens.local>', 'From address of the account mail'),
  ],
  read: (env, { dataDir }) => {
    const verification = verificationFromEnv(env);
    if (verification.mail.smtpUrl === null && !verification.mail.file && env.MARKETLENS_ENV?.trim() !== 'production') {
      verification.mail = { ...verification.mail, file: join(dataDir, 'mail.txt') };
    }
    return verification;
  },
};
