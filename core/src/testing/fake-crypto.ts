import type { AccessTokenClaims } from "../domain/claims.js";
import type { Clock } from "../ports/clock.js";
import type { Mail, Mailer } from "../ports/mailer.js";
import type { PasswordHasher } from "../ports/password-hasher.js";
import type { Random } from "../ports/random.js";
import type { SecretTokens } from "../ports/secret-tokens.js";
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

/** Predictable UUIDs: 00000000-0000-4000-8000-000000000001, …002, … */
export function sequentialRandom(): Random {
  let n = 0;
  return { uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}` };
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
