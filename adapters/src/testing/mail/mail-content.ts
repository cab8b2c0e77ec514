import type { ReceivedMail } from "./smtp-sink.js";

/** What a mail reader shows of the message: its decoded text part. */
export function decoded(mail: Pick<ReceivedMail, "text">): string {
  return mail.text;
}

/** The first link to the service's `/verify` in the mail (from the text part, unescaped). */
export function verifyLink(mail: ReceivedMail): string {
  const match = /https?:\/\/[^\s"<>]+\/verify\?[^\s"<>]+/.exec(decoded(mail));
  if (!match) throw new Error(`no /verify link in mail "${mail.subject}"`);
  return match[0].replace(/&amp;/g, "&");
}

/** The numeric code in the mail (the `Token` template variable). */
export function mailCode(mail: Pick<ReceivedMail, "text" | "subject">): string {
  const match = /code[^0-9]{0,40}(\d{6,10})\b/i.exec(decoded(mail));
  if (!match?.[1]) throw new Error(`no code in mail "${mail.subject}"`);
  return match[1];
}

/** Resolves with the `n`th mail (1-based) received for `address`, waiting for it when needed. */
export function nthMail(
  sink: { mails: ReceivedMail[] },
  address: string,
  n: number,
  timeoutMs = 10_000,
): Promise<ReceivedMail> {
  const to = address.toLowerCase();
  const find = () => sink.mails.filter((m) => m.to.includes(to))[n - 1];
  return new Promise((resolve, reject) => {
    const started = Date.now();
    // The sink gives no per-address event; look every 10 ms until the mail is there.
    const poll = setInterval(() => {
      const mail = find();
      if (mail) {
        clearInterval(poll);
        resolve(mail);
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(poll);
        reject(new Error(`no mail #${n} for ${address} within ${timeoutMs} ms`));
      }
    }, 10);
  });
}

/** How many mails `address` has received so far. */
export const mailCount = (sink: { mails: ReceivedMail[] }, address: string) =>
  sink.mails.filter((m) => m.to.includes(address.toLowerCase())).length;
