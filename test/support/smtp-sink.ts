import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  readonly from: string;
  readonly to: readonly string[];
  readonly raw: string;
  readonly subject: string;
}

/** A real SMTP server on 127.0.0.1 that keeps every message it accepts. */
export async function startSmtpSink(): Promise<{
  host: string;
  port: number;
  mails: ReceivedMail[];
  /** Resolves with the first mail to `address` (already received or yet to come). */
  next(address: string): Promise<ReceivedMail>;
  close(): Promise<void>;
}> {
  const mails: ReceivedMail[] = [];
  const waiters: { address: string; resolve: (mail: ReceivedMail) => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const subject = /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? "";
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw,
          subject,
        };
        mails.push(mail);
        for (const waiter of waiters.splice(0)) {
          if (mail.to.includes(waiter.address)) waiter.resolve(mail);
          else waiters.push(waiter);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
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
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
