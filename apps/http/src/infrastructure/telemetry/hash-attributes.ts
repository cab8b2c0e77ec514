import type { Attributes } from "@opentelemetry/api";

const ARGON2 = /^\$(argon2(?:d|i|id))\$v=(\d+)\$m=(\d+),t=(\d+),p=(\d+)(?:,[^$]*)?\$[^$]*\$([^$]*)$/;
const BCRYPT = /^\$2[abxy]?\$(\d{2})\$/;

/**
 * The reference's attributes of a password hash: `alg` with `v, m, t, p, len` for argon2 and
 * `bcrypt_cost` for bcrypt. Only the algorithm's public parameters, read from the PHC string:
 * never the salt or the hash.
 */
export function hashAttributes(hash: string): Attributes {
  const argon2 = ARGON2.exec(hash);
  if (argon2) {
    const [, alg, v, m, t, p, raw] = argon2;
    return {
      alg: alg ?? "argon2",
      v: v ?? "",
      m: Number(m),
      t: Number(t),
      p: Number(p),
      // The raw hash is unpadded base64: its length in bytes is 3/4 of its characters, rounded down.
      len: Math.floor(((raw ?? "").length * 3) / 4),
    };
  }
  const bcrypt = BCRYPT.exec(hash);
  if (bcrypt) return { alg: "bcrypt", bcrypt_cost: Number(bcrypt[1]) };
  return { alg: "unknown" };
}
