/**
 * A small SMTP server for tests (RFC 5321 without extensions beyond AUTH PLAIN and LOGIN): it
 * holds a real conversation over a socket and keeps what it was given, so a test of the SMTP
 * mailer checks a delivery, not a mock.
 */
import { once } from 'node:events';
import { type AddressInfo, createServer, type Socket } from 'node:net';

/** One message as the receiver got it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** The user and password of AUTH, when the client authenticated. */
  auth: { user: string; pass: string } | null;
  /** The raw message (headers and body), dot-unstuffed. */
  data: string;
  /** The body with quoted-printable soft breaks and escapes undone. */
  body: string;
}

export interface SmtpReceiver {
  port: number;
  /** Every command line received, in order (to check the conversation). */
  readonly commands: string[];
  readonly mails: ReceivedMail[];
  /** The next mail (or the first one not yet taken). */
  next(): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = Buffer.from(
    text
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  );
  return bytes.toString('utf8');
}

function bodyOf(data: string): string {
  const split = data.indexOf('\r\n\r\n');
  const head = split < 0 ? data : data.slice(0, split);
  const body = split < 0 ? '' : data.slice(split + 4);
  if (/^content-transfer-encoding:\s*quoted-printable/im.test(head)) return decodeQuotedPrintable(body);
  if (/^content-transfer-encoding:\s*base64/im.test(head)) return Buffer.from(body, 'base64').toString('utf8');
  return body;
}

/** Starts a receiver on a free loopback port. */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const commands: string[] = [];
  const mails: ReceivedMail[] = [];
  const waiting: ((m: ReceivedMail) => void)[] = [];
  let taken = 0;
  const sockets = new Set<Socket>();
  const deliver = (m: ReceivedMail) => {
    mails.push(m);
    const w = waiting.shift();
    if (w) {
      taken += 1;
      w(m);
    }
  };

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.setEncoding('latin1');
    const say = (line: string) => socket.write(`${line}\r\n`);
    let buffer = '';
    let mode: 'command' | 'data' | 'auth-user' | 'auth-pass' = 'command';
    let from = '';
    let to: string[] = [];
    let auth: ReceivedMail['auth'] = null;
    let pendingUser = '';
    say('220 receiver.test ESMTP');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      while (true) {
        if (mode === 'data') {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          const data = buffer.slice(0, end).replace(/^\.\./gm, '.');
          buffer = buffer.slice(end + 5);
          mode = 'command';
          const raw = Buffer.from(data, 'latin1').toString('utf8');
          deliver({ from, to, auth, data: raw, body: bodyOf(data) });
          from = '';
          to = [];
          say('250 2.0.0 queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        commands.push(line);
        if (mode === 'auth-user') {
          pendingUser = Buffer.from(line, 'base64').toString('utf8');
          mode = 'auth-pass';
          say(`334 ${Buffer.from('Password:').toString('base64')}`);
          continue;
        }
        if (mode === 'auth-pass') {
          auth = { user: pendingUser, pass: Buffer.from(line, 'base64').toString('utf8') };
          mode = 'command';
          say('235 2.7.0 authenticated');
          continue;
        }
        const verb = line.split(' ')[0]?.toUpperCase() ?? '';
        if (verb === 'EHLO') {
          say('250-receiver.test');
          say('250-8BITMIME');
          say('250 AUTH PLAIN LOGIN');
        } else if (verb === 'HELO') say('250 receiver.test');
        else if (verb === 'AUTH') {
          const [, mech = '', initial] = line.split(' ');
          if (mech.toUpperCase() === 'PLAIN' && initial !== undefined) {
            const [, user = '', pass = ''] = Buffer.from(initial, 'base64').toString('utf8').split('\0');
            auth = { user, pass };
            say('235 2.7.0 authenticated');
          } else if (mech.toUpperCase() === 'LOGIN') {
            mode = 'auth-user';
            say(`334 ${Buffer.from('Username:').toString('base64')}`);
          } else say('504 5.5.4 mechanism not supported');
        } else if (verb === 'MAIL') {
          from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          say('250 2.1.0 ok');
        } else if (verb === 'RCPT') {
          to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          say('250 2.1.5 ok');
        } else if (verb === 'DATA') {
          mode = 'data';
          say('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'RSET') {
          from = '';
          to = [];
          say('250 2.0.0 ok');
        } else if (verb === 'NOOP') say('250 2.0.0 ok');
        else if (verb === 'QUIT') {
          say('221 2.0.0 bye');
          socket.end();
          return;
        } else say('502 5.5.2 command not recognized');
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    commands,
    mails,
    next() {
      if (taken < mails.length) {
        const m = mails[taken];
        taken += 1;
        if (m !== undefined) return Promise.resolve(m);
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
