import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type SmtpReceiver, startSmtpReceiver } from '../../../test/support/smtp-receiver.js';
import { loadConfig } from '../../config/load.js';
import { verificationFromEnv } from './config.js';
import { checkSmtpUrl, fileMailer, mailerOf, mailFailure, smtpMailer } from './mailer.js';

let receiver: SmtpReceiver | null = null;
afterEach(async () => {
  await receiver?.close();
  receiver = null;
});

const LINK = 'https://api.example.com/v1/auth/verify?token=mlv_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOP';

describe('the SMTP mailer', () => {
  it('delivers over a real SMTP conversation, authenticated, the link intact', async () => {
    receiver = await startSmtpReceiver();
    const mailer = smtpMailer(`smtp://mailer:s3cret@127.0.0.1:${receiver.port}`, 'marketlens <no-reply@example.com>');
    await mailer.send({ to: 'ada@example.com', subject: 'Verify your address', text: `Follow:\n\n${LINK}\n` });
    mailer.close?.();
    const mail = await receiver.next();
    expect(mail.from).toBe('no-reply@example.com');
    expect(mail.to).toEqual(['ada@example.com']);
    expect(mail.auth).toEqual({ user: 'mailer', pass: 's3cret' });
    expect(mail.data).toMatch(/^Subject: Verify your address$/m);
    expect(mail.data).toMatch(/^From: marketlens <no-reply@example.com>$/m);
    expect(mail.body).toContain(LINK);
    const verbs = receiver.commands.map((c) => c.split(' ')[0]?.toUpperCase());
    expect(verbs).toEqual(expect.arrayContaining(['EHLO', 'AUTH', 'MAIL', 'RCPT', 'DATA']));
  });

  it('rejects when the server is not there, so the caller can log it', async () => {
    receiver = await startSmtpReceiver();
    const port = receiver.port;
    await receiver.close();
    receiver = null;
    const mailer = smtpMailer(`smtp://127.0.0.1:${port}`, 'no-reply@example.com');
    await expect(mailer.send({ to: 'ada@example.com', subject: 's', text: 't' })).rejects.toThrow();
  });

  it('is what a configured SMTP URL names; the mail file, or nothing, otherwise; never the log', async () => {
    receiver = await startSmtpReceiver();
    const lines: string[] = [];
    const viaConfig = mailerOf({ smtpUrl: `smtp://127.0.0.1:${receiver.port}`, from: 'a@example.com' }, (l) =>
      lines.push(l),
    );
    await viaConfig.send({ to: 'b@example.com', subject: 'hello', text: 'body' });
    expect((await receiver.next()).to).toEqual(['b@example.com']);
    expect(lines).toEqual([]);
    await mailerOf({ smtpUrl: null, from: 'a@example.com' }, (l) => lines.push(l)).send({
      to: 'b@example.com',
      subject: 'hello',
      text: 'body',
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/not sent.*MARKETLENS_SMTP_URL/);
    expect(lines[0]).not.toContain('b@example.com');
    const file = join(mkdtempSync(join(tmpdir(), 'marketlens-mail-')), 'mail.txt');
    await mailerOf({ smtpUrl: null, file, from: 'a@example.com' }, (l) => lines.push(l)).send({
      to: 'b@example.com',
      subject: 'hello',
      text: LINK,
    });
    expect(readFileSync(file, 'utf8')).toContain(LINK);
    expect(lines[1]).toBe(`a mail was appended to ${file}`);
  });

  it('logs a failure without the address or the message', () => {
    const err = Object.assign(new Error('550 mailbox ada@example.com unknown'), { code: 'EENVELOPE' });
    expect(mailFailure(err)).toBe('Error EENVELOPE');
    expect(mailFailure(new TypeError(`bad ${LINK}`))).toBe('TypeError');
  });
});

describe('the mail file', () => {
  it('appends each mail to an owner-only file in an owner-only folder, and logs only where', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'marketlens-mail-')), 'nested');
    const file = join(dir, 'mail.txt');
    const lines: string[] = [];
    const mailer = fileMailer(file, 'marketlens <no-reply@example.com>', (l) => lines.push(l));
    await mailer.send({ to: 'ada@example.com', subject: 'Verify', text: `Follow ${LINK}` });
    await mailer.send({ to: 'bob@example.com', subject: 'Reset', text: 'second' });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('To: ada@example.com');
    expect(text).toContain(LINK);
    expect(text).toContain('To: bob@example.com');
    expect(text.indexOf('ada@example.com')).toBeLessThan(text.indexOf('bob@example.com'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(lines).toEqual([`a mail was appended to ${file}`, `a mail was appended to ${file}`]);
    for (const line of lines) {
      expect(line).not.toContain('ada@');
      expect(line).not.toContain('mlv_');
    }
  });
});

describe('mail and verification settings', () => {
  it('requires verification in production by default, not otherwise, and reads on/off', () => {
    expect(verificationFromEnv({}).emailVerification).toBe(false);
    const smtp = { MARKETLENS_SMTP_URL: 'smtp://mail.example.com:587' };
    expect(verificationFromEnv({ MARKETLENS_ENV: 'production', ...smtp }).emailVerification).toBe(true);
    expect(() => verificationFromEnv({ MARKETLENS_ENV: 'production' })).toThrow(/MARKETLENS_SMTP_URL/);
    expect(
      verificationFromEnv({ MARKETLENS_ENV: 'production', MARKETLENS_EMAIL_VERIFICATION: 'off' }).emailVerification,
    ).toBe(false);
    expect(verificationFromEnv({ MARKETLENS_EMAIL_VERIFICATION: 'on' }).emailVerification).toBe(true);
    expect(() => verificationFromEnv({ MARKETLENS_EMAIL_VERIFICATION: 'maybe' })).toThrow(
      /MARKETLENS_EMAIL_VERIFICATION must be on or off/,
    );
  });

  it('reaches the server configuration: production requires verification unless turned off', () => {
    const production = {
      MARKETLENS_ENV: 'production',
      MARKETLENS_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
      MARKETLENS_PUBLIC_URL: 'https://api.example.com',
      MARKETLENS_SMTP_URL: 'smtp://mail.example.com:587',
    };
    expect(loadConfig({ env: production }).server.config.emailVerification).toBe(true);
    expect(loadConfig({ env: {} }).server.config.emailVerification).toBe(false);
    const off = loadConfig({ env: { ...production, MARKETLENS_EMAIL_VERIFICATION: 'off' } });
    expect(off.server.config.emailVerification).toBe(false);
    expect(() => loadConfig({ env: { MARKETLENS_SMTP_URL: 'http://x' } })).toThrow(/MARKETLENS_SMTP_URL/);
  });

  it('takes smtp: and smtps: URLs only, and never echoes one back (it may hold a password)', () => {
    expect(verificationFromEnv({}).mail).toEqual({
      smtpUrl: null,
      file: null,
      from: 'marketlens <no-reply@marketlens.local>',
    });
    const c = verificationFromEnv({
      MARKETLENS_SMTP_URL: 'smtps://u:p@mail.example.com:465',
      MARKETLENS_MAIL_FROM: 'x@y.z',
    });
    expect(c.mail).toEqual({ smtpUrl: 'smtps://u:p@mail.example.com:465', file: null, from: 'x@y.z' });
    for (const bad of ['https://u:hunter2@mail.example.com', 'not a url', 'smtp://']) {
      expect(() => checkSmtpUrl(bad)).toThrow(/MARKETLENS_SMTP_URL must be/);
      try {
        checkSmtpUrl(bad);
      } catch (err) {
        expect(String(err)).not.toContain('hunter2');
      }
    }
  });
});
