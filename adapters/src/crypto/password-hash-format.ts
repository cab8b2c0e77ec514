/**
 * The password hashes authsvc reads (bcrypt, argon2i/argon2id PHC strings) and the most work it will
 * spend on one. A stored hash chooses its own cost, and each sign-in attempt pays it on a hash worker:
 * a hash beyond these limits is never computed, never accepted from an admin and never imported.
 *
 * The limits are about one second of one worker (and, for argon2, 256 MiB of memory) each, on the
 * development machine: generous for every real hash, fatal to none.
 * - argon2: memory ≤ 256 MiB, passes ≤ 10, lanes ≤ 16, and memory × passes ≤ 1 GiB. That holds the
 *   defaults of libsodium's moderate (256 MiB, t=3) and interactive levels, RFC 9106's second
 *   recommendation (64 MiB, t=3, p=4, as argon2-cffi and Bitwarden), PHP (64 MiB, t=4), Django
 *   (100 MiB, t=2, p=8) and every OWASP setting. It leaves out libsodium's "sensitive" (1 GiB, t=4) and
 *   RFC 9106's first recommendation (2 GiB): key-derivation settings, not login ones, and four of those
 *   at once would hold 4–8 GiB. GoTrue's own limits (1 GiB, t ≤ 20, p ≤ 16) let one hash take 4 GB
 *   and over a minute.
 * - bcrypt: cost ≤ 14. Frameworks default to 10 (Go, GoTrue, Spring) or 12 (Rails, Laravel, Django,
 *   PHP 8.4); 14 is two doublings above the highest (about a second), where 16 would be four.
 * Lanes do not add work (@node-rs/argon2 computes them one after another); the cap keeps the shape
 *   sane (argon2 itself allows 2^24 - 1).
 */
export const PASSWORD_HASH_LIMITS = {
  argon2MemoryKiB: 256 * 1024,
  argon2Passes: 10,
  argon2Lanes: 16,
  /** Memory × passes, in KiB·passes: the time one verification takes. */
  argon2Work: 1024 * 1024,
  bcryptCost: 14,
} as const;

export type HashFormat =
  | { readonly kind: "bcrypt"; readonly cost: number }
  | {
      readonly kind: "argon2";
      readonly variant: "argon2i" | "argon2id";
      readonly m: number;
      readonly t: number;
      readonly p: number;
    };

const BCRYPT = /^\$2[aby]\$(\d{2})\$[./A-Za-z0-9]{53}$/;
// v=19 only, no keyid/data: the PHC shapes GoTrue accepts. argon2d is refused, as there.
const ARGON2 =
  /^\$(argon2id|argon2i)\$v=19\$m=(\d{1,10}),t=(\d{1,10}),p=(\d{1,10})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** Unpadded base64 of at least `minBytes` bytes (a length of 4k+1 characters cannot be base64). */
const isBase64Of = (s: string, minBytes: number) =>
  s.length % 4 !== 1 && Math.floor((s.length * 3) / 4) >= minBytes;

/** The algorithm and cost of a well-formed bcrypt or argon2 hash, whatever the cost; null otherwise. */
export function hashFormat(encoded: string): HashFormat | null {
  const bcrypt = BCRYPT.exec(encoded);
  if (bcrypt) {
    const cost = Number(bcrypt[1]);
    return cost >= 4 && cost <= 31 ? { kind: "bcrypt", cost } : null;
  }
  const argon = ARGON2.exec(encoded);
  if (!argon) return null;
  const [, variant, m, t, p, salt = "", digest = ""] = argon;
  const params = { m: Number(m), t: Number(t), p: Number(p) };
  const wellFormed =
    params.p >= 1 &&
    params.t >= 1 &&
    params.m >= 8 * params.p && // argon2's own lower bound
    isBase64Of(salt, 8) &&
    isBase64Of(digest, 4);
  return wellFormed ? { kind: "argon2", variant: variant as "argon2i" | "argon2id", ...params } : null;
}

/** Why a well-formed hash costs more than authsvc computes (names the limit, not the hash); null within. */
export function costBeyondLimits(format: HashFormat): string | null {
  const limits = PASSWORD_HASH_LIMITS;
  if (format.kind === "bcrypt") {
    return format.cost > limits.bcryptCost ? `bcrypt cost above ${limits.bcryptCost}` : null;
  }
  if (format.m > limits.argon2MemoryKiB) return `argon2 memory above ${limits.argon2MemoryKiB} KiB`;
  if (format.t > limits.argon2Passes) return `argon2 passes above ${limits.argon2Passes}`;
  if (format.p > limits.argon2Lanes) return `argon2 lanes above ${limits.argon2Lanes}`;
  if (format.m * format.t > limits.argon2Work) {
    return `argon2 memory × passes above ${limits.argon2Work} KiB`;
  }
  return null;
}

/** A hash authsvc verifies: well-formed and within the limits. */
export function readableHash(encoded: string): HashFormat | null {
  const format = hashFormat(encoded);
  return format !== null && costBeyondLimits(format) === null ? format : null;
}

/**
 * Why a stored password hash is not to be copied: a bcrypt or argon2 hash beyond the limits. Other
 * text (a hash of another kind, e.g. GoTrue's Firebase scrypt) is not refused: it never verifies, and
 * costs nothing.
 */
export function passwordHashRefusal(encoded: string): string | null {
  const format = hashFormat(encoded);
  const beyond = format === null ? null : costBeyondLimits(format);
  return beyond === null ? null : `its password hash costs more than authsvc computes (${beyond})`;
}
