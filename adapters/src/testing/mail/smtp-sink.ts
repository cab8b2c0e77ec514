import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { parseMessage } from "./mime.js";

export interface ReceivedMail {
  /** The envelope sender (MAIL FROM). */
  readonly from: string;
  /** The envelope recipients (RCPT TO), lower-cased. */
  readonly to: readonly string[];
  readonly raw: string;
  /** Decoded `Subject` header. */
  readonly subject: string;
  /** Header names lower-cased; values unfolded and decoded. */
  readonly headers: Readonly<Record<string, string>>;
  /** The decoded text/plain part ("" when absent). */
  readonly text: string;
  /** The decoded text/html part ("" when absent). */
  readonly html: string;
}

export interface SmtpSinkOptions {
  /** Recipients the server refuses at RCPT TO with `550 mailbox unavailable`. */
  readonly rejectRecipient?: (address: string) => boolean;
  /** Requires AUTH PLAIN/LOGIN with these credentials (over plain TCP: this is a loopback test server). */
  readonly auth?: { readonly user: string; readonly pass: string };
  /** Holds each message this long before accepting it (a slow mail server). */
  readonly delayMs?: number;
  /** Port to listen on (127.0.0.1); 0, the default, picks a free one. */
  readonly port?: number;
}

/** Errors smtp-server turns into SMTP replies. */
const smtpError = (code: number, message: string) =>
  Object.assign(new Error(message), { responseCode: code });

/** A real SMTP server on 127.0.0.1 that keeps every message it accepts. */
export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<{
  host: string;
  port: number;
  mails: ReceivedMail[];
  /** Resolves with the first mail to `address` (already received or yet to come). */
  next(address: string): Promise<ReceivedMail>;
  /** Refuses the next message at the end of DATA with `554 transaction failed`; it is not kept. */
  failNext(): void;
  /** SMTP sessions: opened since start, and open now. */
  readonly sessions: { readonly opened: number; readonly open: number };
  close(): Promise<void>;
}> {
  const mails: ReceivedMail[] = [];
  const waiters: { address: string; resolve: (mail: ReceivedMail) => void }[] = [];
  let failures = 0;
  const sessions = { opened: 0, open: 0 };
  const server = new SMTPServer({
    onConnect(_session, callback) {
      sessions.opened++;
      sessions.open++;
      callback();
    },
    onClose() {
      sessions.open--;
    },
    authOptional: options.auth === undefined,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) {
        callback(null, { user: auth.username });
      } else callback(smtpError(535, "authentication failed"));
    },
    disabledCommands: ["STARTTLS"],
    logger: false,
    // No reverse DNS lookup of 127.0.0.1: slow or hanging where no resolver answers.
    disableReverseLookup: true,
    onRcptTo(address, _session, callback) {
      if (options.rejectRecipient?.(address.address.toLowerCase())) {
        callback(smtpError(550, "mailbox unavailable"));
      } else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (failures > 0) {
          failures--;
          callback(smtpError(554, "transaction failed"));
          return;
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        const parsed = parseMessage(raw);
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw,
          subject: parsed.headers.subject ?? "",
          headers: parsed.headers,
          text: parsed.text,
          html: parsed.html,
        };
        const accept = () => {
          mails.push(mail);
          for (const waiter of waiters.splice(0)) {
            if (mail.to.includes(waiter.address)) waiter.resolve(mail);
            else waiters.push(waiter);
          }
          callback();
        };
        if (options.delayMs) setTimeout(accept, options.delayMs);
        else accept();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    host: "127.0.0.1",
    port,
    mails,
    next: (address) => {
      const found = mails.find((m) => m.to.includes(address.toLowerCase()));
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ address: address.toLowerCase(), resolve }));
    },
    failNext: () => {
      failures++;
    },
    sessions,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
