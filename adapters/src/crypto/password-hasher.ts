import type { PasswordHasher } from "@authsvc/core/accounts";
import { type Algorithm, hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";
import { costBeyondLimits, PASSWORD_HASH_LIMITS, readableHash } from "./password-hash-format.js";

/**
 * bcrypt verifies only imported hashes until their first sign-in moves them to argon2id: its native
 * library (some megabytes resident) is loaded at the first bcrypt hash met, not by every server.
 */
let bcrypt: Promise<typeof import("@node-rs/bcrypt")> | undefined;
const bcryptVerify = async (password: string, encoded: string) => {
  bcrypt ??= import("@node-rs/bcrypt");
  return (await bcrypt).verify(password, encoded);
};

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

function checkOption(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`argon2Hasher: ${name} must be an integer in [${min}, ${max}], got ${value}`);
  }
  return value;
}

/**
 * The production `PasswordHasher`: new hashes are argon2id (default m=19456 KiB, t=2, p=1).
 *
 * Verification also accepts imported hashes: bcrypt (`$2a$`, `$2b$`, `$2y$`) and argon2i / argon2id
 * PHC strings (v=19), within the limits of `PASSWORD_HASH_LIMITS` (password-hash-format.ts). Anything
 * else — including a hash beyond those limits, which is never computed — is not a supported hash and
 * verifies false after the work of one dummy verification, as a wrong password does.
 *
 * Every hash and verification, argon2 (@node-rs/argon2) and bcrypt (@node-rs/bcrypt) alike, runs on
 * libuv's thread pool: the event loop keeps serving requests, and at most `UV_THREADPOOL_SIZE` (4)
 * run at once, the rest queued there, at the pool's lowered priority (apps/http/src/cli/worker-pool-priority.ts).
 *
 * Passwords are never truncated by this hasher. bcrypt itself only reads the first 72 bytes of
 * UTF-8: that is inherent to an imported bcrypt hash (the original system had the same limit), and
 * it lasts only until the first successful sign-in, after which `needsRehash` moves it to argon2id.
 */
export function argon2Hasher(options: Argon2Options = {}): PasswordHasher {
  // Our own hashes must stay within the limits we accept for imported ones.
  const limits = PASSWORD_HASH_LIMITS;
  const parallelism = checkOption("parallelism", options.parallelism ?? 1, 1, limits.argon2Lanes);
  const timeCost = checkOption("timeCost", options.timeCost ?? 2, 1, limits.argon2Passes);
  const memoryCost = checkOption(
    "memoryCost",
    options.memoryCost ?? 19456,
    8 * parallelism,
    limits.argon2MemoryKiB,
  );
  const beyond = costBeyondLimits({
    kind: "argon2",
    variant: "argon2id",
    m: memoryCost,
    t: timeCost,
    p: parallelism,
  });
  if (beyond !== null) throw new RangeError(`argon2Hasher: ${beyond}`);
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

  const verifyReadable = async (encoded: string, password: string): Promise<boolean | null> => {
    const format = readableHash(encoded);
    if (format === null) return null;
    try {
      return format.kind === "bcrypt"
        ? await bcryptVerify(password, encoded)
        : await argon2Verify(encoded, password);
    } catch {
      // A hash that passed the shape check but still cannot be read (e.g. bad base64 inside).
      return false;
    }
  };

  const verifyDummy = async (password: string): Promise<void> => {
    await verifyReadable(await getDummyHash(), password);
  };

  const verify = async (encoded: string, password: string): Promise<boolean> => {
    const verified = await verifyReadable(encoded, password);
    if (verified !== null) return verified;
    // Not computed; the dummy's work instead, so that this answers as slowly as a wrong password.
    await verifyDummy(password);
    return false;
  };

  return {
    hash: (password) => argon2Hash(password, params),
    verify,
    needsRehash(encoded) {
      const format = readableHash(encoded);
      return !(
        format?.kind === "argon2" &&
        format.variant === "argon2id" &&
        format.m === memoryCost &&
        format.t === timeCost &&
        format.p === parallelism
      );
    },
    verifyDummy,
    isSupportedHash: (encoded) => readableHash(encoded) !== null,
  };
}
