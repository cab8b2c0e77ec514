import type { AccessTokenClaims } from "../domain/claims.js";
import type { Clock } from "../ports/clock.js";
import type { Mail, Mailer } from "../ports/mailer.js";
import type { PasswordHasher } from "../ports/password-hasher.js";
import type { Random } from "../ports/random.js";
import type { SecretTokens } from "../ports/secret-tokens.js";
import type { SendQuota } from "../ports/send-quota.js";
import type { SmsSender } from "../ports/sms-sender.js";
import type { TokenSigner } from "../ports/token-signer.js";

/** A clock that stands still until told to move. */
export function fixedClock(
  start = new Date("2026-01-01T00:00:00Z"),
): Clock & { advance(ms: number): void; set(d: Date): void } {
  let now = start;
  return {
    now: () => now,
    advance: (ms) => {
      now = new Date(now.getTime() + ms);
    },
    set: (d) => {
      now = d;
    },
  };
}

/**
 * Predictable UUIDs (00000000-0000-4000-8000-000000000001, …002, …) and codes ("000001", "000002", …
 * zero-padded to the length asked for, keeping the last digits when the count outgrows it).
 */
export function sequentialRandom(): Random {
  let n = 0;
  let codes = 0;
  return {
    uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`,
    digits: (length) => (length === 0 ? "" : String(++codes).padStart(length, "0").slice(-length)),
  };
}

/** Readable fake tokens; `hash` and `child` are reversible-looking but distinct transformations. */
export function fakeSecretTokens(): SecretTokens {
  let n = 0;
  return {
    generate: () => `rt${++n}`,
    hash: (token) => `h(${token})`,
    child: (parent) => `${parent}>c`,
  };
}

/** A deliberately fast "hasher": `plain$<password>`; `bcrypt$…` counts as an imported hash. */
export function fakeHasher(): PasswordHasher & { dummyCalls: number } {
  const hasher = {
    dummyCalls: 0,
    hash: async (password: string) => `plain$${password}`,
    verify: async (hash: string, password: string) =>
      hash === `plain$${password}` || hash === `bcrypt$${password}`,
    needsRehash: (hash: string) => !hash.startsWith("plain$"),
    verifyDummy: async () => {
      hasher.dummyCalls++;
    },
    isSupportedHash: (hash: string) => hash.startsWith("bcrypt$") || hash.startsWith("plain$"),
  };
  return hasher;
}

/** "Signs" by JSON-encoding the claims with a prefix; verifies by decoding (and checking exp). */
export function fakeSigner(clock: Clock): TokenSigner {
  return {
    sign: async (claims: AccessTokenClaims) => `jwt.${JSON.stringify(claims)}`,
    verify: async (token) => {
      if (!token.startsWith("jwt.")) return null;
      try {
        const claims = JSON.parse(token.slice(4)) as Record<string, unknown>;
        return typeof claims.exp === "number" && claims.exp * 1000 > clock.now().getTime() ? claims : null;
      } catch {
        return null;
      }
    },
  };
}

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

/** An in-memory fixed-window counter. */
export function fakeQuota(): SendQuota & { counts: Map<string, number> } {
  const counts = new Map<string, number>();
  return {
    counts,
    take: async (key, limit, windowMs, now) => {
      const window = `${key}@${Math.floor(now.getTime() / windowMs)}`;
      const used = counts.get(window) ?? 0;
      if (used >= limit) return false;
      counts.set(window, used + 1);
      return true;
    },
  };
}
