import type { Mail, Mailer, SmsSender } from "../../verification/index.js";

/** Keeps every mail it is asked to send. */
export function fakeMailer(): Mailer & { sent: Mail[] } {
  const sent: Mail[] = [];
  return { sent, send: async (mail) => void sent.push(mail) };
}

/** Keeps every SMS; `fail` makes the next sends reject like a gateway error. */
export function fakeSms(): SmsSender & { sent: { to: string; body: string }[]; fail: Error | null } {
  const fake = {
    sent: [] as { to: string; body: string }[],
    fail: null as Error | null,
    async send(to: string, body: string) {
      if (fake.fail) throw fake.fail;
      fake.sent.push({ to, body });
      return { messageId: `sms-${fake.sent.length}` };
    },
  };
  return fake;
}
