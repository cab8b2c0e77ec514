import type { DeliveryFailure, DeliveryQueue } from "../../kernel/index.js";
import type { Mail, Mailer, SmsChannel, SmsContext, SmsSender } from "../../messaging/index.js";

type MailContext = Pick<Mail, "user" | "tokenHash" | "redirectTo">;

/**
 * Keeps every mail it is asked to send: in `sent` what a template renders, in `contexts` what only
 * a send-email hook reads (the user, the link's token hash, the redirect).
 */
export function fakeMailer(): Mailer & { sent: Mail[]; contexts: MailContext[] } {
  const sent: Mail[] = [];
  const contexts: MailContext[] = [];
  return {
    sent,
    contexts,
    send: async ({ user, tokenHash, redirectTo, ...rendered }) => {
      sent.push(rendered);
      contexts.push({ user, tokenHash, redirectTo });
    },
  };
}

/** An SMS the fake was asked to send; `channel` only for a WhatsApp message. */
export interface SentSms {
  readonly to: string;
  readonly body: string;
  readonly channel?: SmsChannel;
}

/** Keeps every SMS; `fail` makes the next sends reject like a gateway error. */
export function fakeSms(): SmsSender & { sent: SentSms[]; fail: Error | null } {
  const fake = {
    sent: [] as SentSms[],
    fail: null as Error | null,
    async send(to: string, body: string, context?: SmsContext) {
      if (fake.fail) throw fake.fail;
      fake.sent.push({ to, body, ...(context?.channel ? { channel: context.channel } : {}) });
      return { messageId: `sms-${fake.sent.length}` };
    },
  };
  return fake;
}

/**
 * Runs each delivery job before `enqueue` returns (so a mail is in `fakeMailer().sent` when the use
 * case answers) and keeps what the jobs report: `failures` holds the compensated failures, `faults`
 * what jobs threw. `idle()` waits for any still running.
 */
export function fakeDeliveries(): DeliveryQueue & {
  failures: DeliveryFailure[];
  faults: unknown[];
  idle(): Promise<void>;
} {
  const running: Promise<void>[] = [];
  const failures: DeliveryFailure[] = [];
  const faults: unknown[] = [];
  return {
    failures,
    faults,
    enqueue(job) {
      const run = job().then(
        (failure) => void (failure && failures.push(failure)),
        (fault: unknown) => void faults.push(fault),
      );
      running.push(run);
      return run;
    },
    async idle() {
      while (running.length > 0) await Promise.all(running.splice(0));
    },
  };
}
