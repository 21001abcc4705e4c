import { checkSmtpUrl, DEFAULT_MAIL_FROM, type MailConfig } from './mailer.js';

/**
 * `MARKETLENS_EMAIL_VERIFICATION` (`on`/`off`, `true`/`false`; default on in production, off
 * otherwise), `MARKETLENS_SMTP_URL` (none: mail goes to the log) and `MARKETLENS_MAIL_FROM`.
 */
export function verificationFromEnv(env: NodeJS.ProcessEnv): { emailVerification: boolean; mail: MailConfig } {
  const raw = env.MARKETLENS_EMAIL_VERIFICATION?.trim().toLowerCase() ?? '';
  let emailVerification: boolean;
  if (raw === '') emailVerification = env.MARKETLENS_ENV?.trim() === 'production';
  else if (raw === 'on' || raw === 'true') emailVerification = true;
  else if (raw === 'off' || raw === 'false') emailVerification = false;
  else throw new Error(`MARKETLENS_EMAIL_VERIFICATION must be on or off, got '${raw}'`);
  const smtp = env.MARKETLENS_SMTP_URL?.trim();
  const from = env.MARKETLENS_MAIL_FROM?.trim() || DEFAULT_MAIL_FROM;
  return { emailVerification, mail: { smtpUrl: smtp ? checkSmtpUrl(smtp) : null, from } };
}
