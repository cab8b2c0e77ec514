import type { PasswordHasher } from "@authsvc/core";
import { type Algorithm, hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";
import { compare as bcryptCompare } from "bcryptjs";

/** Argon2id parameters for new hashes (OWASP's minimum: m=19456 KiB, t=2, p=1). */
export interface Argon2Options {
  /** Memory in KiB. */
  memoryCost?: number;
  /** Passes over memory. */
  timeCost?: number;
  /** Lanes. */
  parallelism?: number;
}

// `Algorithm` is an ambient const enum, which `isolatedModules` forbids reading; 2 is `Argon2id`.
const ARGON2ID = 2 as Algorithm;

// Limits on imported hashes, as GoTrue's (internal/crypto/password.go): anything beyond them is a
// denial of service waiting for the next sign-in rather than a real hash.
const MAX_ARGON2_MEMORY_KIB = 1024 * 1024;
const MAX_ARGON2_TIME = 20;
const MAX_ARGON2_LANES = 16;
// GoTrue has no bcrypt cap, but bcryptjs runs on the main thread: cost 16 is ~3 s of CPU per
// verification here, cost 31 would be years. Real-world exports use 10–14.
const MAX_BCRYPT_COST = 16;

const BCRYPT = /^\$2[aby]\$(\d{2})\$[./A-Za-z0-9]{53}$/;
// v=19 only, no keyid/data: the PHC shapes GoTrue accepts. argon2d is refused, as there.
const ARGON2 =
  /^\$(argon2id|argon2i)\$v=19\$m=(\d{1,10}),t=(\d{1,10}),p=(\d{1,10})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

type ParsedHash =
  | { readonly kind: "bcrypt" }
  | {
      readonly kind: "argon2";
      readonly variant: string;
      readonly m: number;
      readonly t: number;
      readonly p: number;
    };

/** Unpadded base64 of at least `minBytes` bytes (a length of 4k+1 characters cannot be base64). */
const isBase64Of = (s: string, minBytes: number) =>
  s.length % 4 !== 1 && Math.floor((s.length * 3) / 4) >= minBytes;

function parseHash(encoded: string): ParsedHash | null {
  const bcrypt = BCRYPT.exec(encoded);
  if (bcrypt) {
    const cost = Number(bcrypt[1]);
    return cost >= 4 && cost <= MAX_BCRYPT_COST ? { kind: "bcrypt" } : null;
  }
  const argon = ARGON2.exec(encoded);
  if (!argon) return null;
  const [, variant = "", m, t, p, salt = "", digest = ""] = argon;
  const params = { m: Number(m), t: Number(t), p: Number(p) };
  const sane =
    params.p >= 1 &&
    params.p <= MAX_ARGON2_LANES &&
    params.t >= 1 &&
    params.t <= MAX_ARGON2_TIME &&
    params.m >= 8 * params.p && // argon2's own lower bound
    params.m <= MAX_ARGON2_MEMORY_KIB &&
    isBase64Of(salt, 8) &&
    isBase64Of(digest, 4);
  return sane ? { kind: "argon2", variant, ...params } : null;
}

function checkOption(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`argon2Hasher: ${name} must be an integer in [${min}, ${max}], got ${value}`);
  }
  return value;
}

/**
 * The production `PasswordHasher`: new hashes are argon2id (default m=19456 KiB, t=2, p=1), computed
 * on libuv's thread pool by @node-rs/argon2's async API so the event loop keeps serving requests.
 *
 * Verification also accepts imported hashes: bcrypt (`$2a$`, `$2b$`, `$2y$`, cost 4–16) and argon2i /
 * argon2id PHC strings (v=19, m ≤ 1 GiB, t ≤ 20, p ≤ 16). Anything else — including hashes beyond
 * those limits — verifies false and is not a supported hash.
 *
 * Passwords are never truncated by this hasher. bcrypt itself only reads the first 72 bytes of
 * UTF-8: that is inherent to an imported bcrypt hash (the original system had the same limit), and
 * it lasts only until the first successful sign-in, after which `needsRehash` moves it to argon2id.
 * bcrypt verification is pure JavaScript run in ≤100 ms slices between event-loop turns.
 */
export function argon2Hasher(options: Argon2Options = {}): PasswordHasher {
  // Our own hashes must stay within the limits we accept for imported ones.
  const parallelism = checkOption("parallelism", options.parallelism ?? 1, 1, MAX_ARGON2_LANES);
  const timeCost = checkOption("timeCost", options.timeCost ?? 2, 1, MAX_ARGON2_TIME);
  const memoryCost = checkOption(
    "memoryCost",
    options.memoryCost ?? 19456,
    8 * parallelism,
    MAX_ARGON2_MEMORY_KIB,
  );
  const params = { algorithm: ARGON2ID, memoryCost, timeCost, parallelism };

  // Computed on first use (not at start-up) and kept: every later dummy verification then costs
  // exactly one argon2id verification, the same as a real user's.
  let dummyHash: Promise<string> | undefined;
  const getDummyHash = () => {
    dummyHash ??= argon2Hash("authsvc dummy password", params).catch((error: unknown) => {
      dummyHash = undefined;
      throw error;
    });
    return dummyHash;
  };

  const verify = async (encoded: string, password: string): Promise<boolean> => {
    const parsed = parseHash(encoded);
    if (!parsed) return false;
    try {
      return parsed.kind === "bcrypt"
        ? await bcryptCompare(password, encoded)
        : await argon2Verify(encoded, password);
    } catch {
      // A hash that passed the shape check but still cannot be read (e.g. bad base64 inside).
      return false;
    }
  };

  return {
    hash: (password) => argon2Hash(password, params),
    verify,
    needsRehash(encoded) {
      const parsed = parseHash(encoded);
      return !(
        parsed?.kind === "argon2" &&
        parsed.variant === "argon2id" &&
        parsed.m === memoryCost &&
        parsed.t === timeCost &&
        parsed.p === parallelism
      );
    },
    async verifyDummy(password) {
      await verify(await getDummyHash(), password);
    },
    isSupportedHash: (encoded) => parseHash(encoded) !== null,
  };
}
