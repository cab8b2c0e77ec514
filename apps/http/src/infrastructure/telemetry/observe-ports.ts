import type { PasswordHasher } from "@authsvc/core/accounts";
import type { HookDispatcher } from "@authsvc/core/hooks";
import type { Mailer, SmsSender } from "@authsvc/core/messaging";
import type { Attributes, Tracer } from "@opentelemetry/api";
import { hashAttributes } from "./hash-attributes.js";
import type { Instruments } from "./instruments.js";
import { inSpan } from "./observe-store.js";

interface Observation {
  readonly tracer: Tracer | undefined;
  readonly instruments: Instruments | undefined;
}

/** The hasher with a span per hash or verification and the reference's submitted/completed counters. */
export function observeHasher(hasher: PasswordHasher, o: Observation): PasswordHasher {
  const i = o.instruments;
  // The adapter chooses the parameters; those of its last hash describe the next one.
  let generated: Attributes = {};
  return {
    needsRehash: (hash) => hasher.needsRehash(hash),
    isSupportedHash: (hash) => hasher.isSupportedHash(hash),
    verifyDummy: (password) =>
      inSpan(o.tracer, "password.verify", { "authsvc.password.dummy": true }, () =>
        hasher.verifyDummy(password),
      ),
    async hash(password) {
      i?.hashSubmitted.add(1, generated);
      const hash = await inSpan(o.tracer, "password.hash", {}, () => hasher.hash(password));
      generated = hashAttributes(hash);
      i?.hashCompleted.add(1, generated);
      return hash;
    },
    async verify(hash, password) {
      const attributes = hashAttributes(hash);
      i?.compareSubmitted.add(1, attributes);
      const match = await inSpan(o.tracer, "password.verify", { alg: attributes.alg ?? "unknown" }, () =>
        hasher.verify(hash, password),
      );
      i?.compareCompleted.add(1, { ...attributes, match });
      return match;
    },
  };
}

/** The mailer with a span per send and the reference's send operations/errors counters by type. */
export function observeMailer(mailer: Mailer, o: Observation): Mailer {
  return {
    async send(mail) {
      // The address and the link carry personal data and secrets: only the kind is recorded.
      const type = mail.kind;
      o.instruments?.emailSends.add(1, { type });
      try {
        return await inSpan(o.tracer, "mail.send", { "authsvc.mail.type": type }, () => mailer.send(mail));
      } catch (error) {
        o.instruments?.emailSendErrors.add(1, { type });
        throw error;
      }
    },
  };
}

/** The SMS sender with a span per send (the gateway's HTTP call becomes its child) and counters. */
export function observeSms(sms: SmsSender, o: Observation): SmsSender {
  return {
    async send(to, body) {
      o.instruments?.smsSends.add(1);
      try {
        return await inSpan(o.tracer, "sms.send", {}, () => sms.send(to, body));
      } catch (error) {
        o.instruments?.smsSendErrors.add(1);
        throw error;
      }
    },
  };
}

/** The hook dispatcher with each failed run counted by hook (the dispatcher logs it). */
export function observeHooks(hooks: HookDispatcher, o: Observation): HookDispatcher {
  return {
    enabled: (name) => hooks.enabled(name),
    overHttp: (name) => hooks.overHttp(name),
    async run(name, input) {
      try {
        const answer = await hooks.run(name, input);
        if (!answer.ok) o.instruments?.hookFailures.add(1, { hook: name });
        return answer;
      } catch (error) {
        o.instruments?.hookFailures.add(1, { hook: name });
        throw error;
      }
    },
  };
}
