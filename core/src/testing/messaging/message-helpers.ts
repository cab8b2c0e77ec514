import { failures } from "../../failures.js";
import type { Mail, Mailer, SmsSender } from "../../messaging/index.js";

/** The link token a mail's link carries (`?token=`), i.e. what a client passes as `token_hash`. */
export function linkTokenOf(mail: Mail | undefined): string {
  const match = /[?&]token=([^&]*)/.exec(mail?.confirmationUrl ?? "");
  if (!match?.[1]) throw new Error(`no link token in ${JSON.stringify(mail)}`);
  return decodeURIComponent(match[1]);
}

/** The code an SMS body carries. */
export function smsCodeOf(sms: { body: string } | undefined): string {
  const match = /(\d+)\s*$/.exec(sms?.body ?? "");
  if (!match?.[1]) throw new Error(`no code in ${JSON.stringify(sms)}`);
  return match[1];
}

/**
 * Makes `mailer` (or `sms`) reject like a refused delivery until the returned `repair` is called.
 * The error is the `AuthError` the adapters raise.
 */
export function breakMailer(mailer: Mailer): () => void {
  const send = mailer.send;
  mailer.send = async () => {
    throw failures.emailSendFailed();
  };
  return () => {
    mailer.send = send;
  };
}

export function breakSms(sms: SmsSender): () => void {
  const send = sms.send;
  sms.send = async () => {
    throw failures.smsSendFailed();
  };
  return () => {
    sms.send = send;
  };
}
