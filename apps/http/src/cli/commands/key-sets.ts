import { parseArgs } from "node:util";
import {
  generateJwtKey,
  JWT_KEY_ALGORITHMS,
  type JwtKeyAlgorithm,
  LEAST_SYMMETRIC_KEY_BYTES,
  parseJwtKeys,
} from "@authsvc/adapters";

/** The kid under which a new set keeps AUTHSVC_JWT_SECRET as a verify-only key. */
export const LEGACY_SECRET_KID = "legacy-secret";

export const KEYS_USAGE = `usage: authsvc keys [--alg ${JWT_KEY_ALGORITHMS.join("|")}] [--without-secret]
       authsvc keys --add [--standby] [--alg …] | --promote <kid> | --remove <kid>

Prints a value for AUTHSVC_JWT_KEYS (one line of JSON) on stdout; notes go to stderr.
  (no option)       a new set of one signing key (ES256 unless --alg), plus AUTHSVC_JWT_SECRET as
                    the verify-only HS256 key "${LEGACY_SECRET_KID}", so the API keys and tokens signed
                    with the secret keep verifying
  --without-secret  a new set without the secret: existing API keys must be re-made
                    ('authsvc api-keys' with the new set)
  --add             the current AUTHSVC_JWT_KEYS plus a new key; without --standby the new key
                    signs and the current signing key only verifies
  --standby         with --add: the new key only verifies (published before it signs)
  --promote <kid>   the current set with <kid> signing and every other key verifying
  --remove <kid>    the current set without <kid> (never the signing key)
  --write <file>    edit AUTHSVC_JWT_KEYS in <file> (a .env) in place instead of printing it
Rotation: --add --standby, wait 10 minutes (JWKS caches), --promote, wait JWT_EXP, --remove.
First move from AUTHSVC_JWT_SECRET: with no AUTHSVC_JWT_KEYS, --add --standby starts a set where the
secret keeps signing (as "${LEGACY_SECRET_KID}") beside the new verify-only key; --promote follows.`;

const KEYS_VARIABLE = "AUTHSVC_JWT_KEYS";

export type KeysOutcome = { ok: true; output: string; notes: string[] } | { ok: false; error: string };

const fail = (error: string): KeysOutcome => ({ ok: false, error });

/**
 * `authsvc keys`: generates and edits key sets for `AUTHSVC_JWT_KEYS`, so an operator never writes
 * a JWK by hand. Pure apart from key generation: `vars` is the environment (with `.env`), the
 * outcome is what to print. Every set it prints has passed the same check as at start.
 */
export function keysCommand(
  args: readonly string[],
  vars: Readonly<Record<string, string | undefined>>,
  secret?: string,
): KeysOutcome {
  let values: {
    alg?: string;
    add?: boolean;
    standby?: boolean;
    promote?: string;
    remove?: string;
    "without-secret"?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        alg: { type: "string" },
        add: { type: "boolean" },
        standby: { type: "boolean" },
        promote: { type: "string" },
        remove: { type: "string" },
        "without-secret": { type: "boolean" },
      },
      strict: true,
    }));
  } catch (error) {
    return fail((error as Error).message);
  }
  const modes = [values.add, values.promote !== undefined, values.remove !== undefined].filter(Boolean);
  if (modes.length > 1) return fail("choose one of --add, --promote and --remove");
  if (values.standby && !values.add) return fail("--standby goes with --add: a standby key joins a set");
  if (values.alg !== undefined && (values.promote !== undefined || values.remove !== undefined))
    return fail("--alg applies to a new key (no option, or --add)");
  const alg = values.alg ?? "ES256";
  if (!(JWT_KEY_ALGORITHMS as readonly string[]).includes(alg))
    return fail(`--alg must be one of ${JWT_KEY_ALGORITHMS.join(", ")}, got ${JSON.stringify(alg)}`);

  if (values["without-secret"] && modes.length > 0)
    return fail("--without-secret applies to a new set (no option)");

  if (modes.length === 0) return newSet(generateJwtKey(alg as JwtKeyAlgorithm), secret, values);
  const current = values.add && !isSet(vars) ? secretAsSet(secret) : currentSet(vars);
  if (!Array.isArray(current)) return current;
  if (values.add) {
    const fresh = generateJwtKey(alg as JwtKeyAlgorithm, { signs: !values.standby });
    return printed([...(values.standby ? current : current.map(verifyOnly)), fresh]);
  }
  const kid = (values.promote ?? values.remove) as string;
  if (!current.some((key) => key.kid === kid)) return fail(`${KEYS_VARIABLE} holds no key with kid "${kid}"`);
  if (values.promote !== undefined) {
    return printed(current.map((key) => (key.kid === kid ? signing(key) : verifyOnly(key))));
  }
  if (current.some((key) => key.kid === kid && isSigning(key)))
    return fail(`"${kid}" is the signing key: promote another key first`);
  return printed(current.filter((key) => key.kid !== kid));
}

type Jwk = Record<string, unknown>;

const isSet = (vars: Readonly<Record<string, string | undefined>>): boolean =>
  (vars[KEYS_VARIABLE] ?? "").trim() !== "";

/**
 * The set a first `--add` starts from when only AUTHSVC_JWT_SECRET is configured: the secret as the
 * signing HS256 key, so that a new key can be published as a standby while the secret keeps signing.
 */
function secretAsSet(secret: string | undefined): Jwk[] | KeysOutcome {
  if (secret === undefined)
    return fail(`neither ${KEYS_VARIABLE} nor AUTHSVC_JWT_SECRET is set: nothing to add to`);
  const legacy = legacySecretKey(secret);
  if (legacy === null)
    return fail(
      `AUTHSVC_JWT_SECRET is shorter than ${LEAST_SYMMETRIC_KEY_BYTES} bytes, too short for a key of the set: start a new set with 'authsvc keys'`,
    );
  return [signing(legacy)];
}

/** AUTHSVC_JWT_SECRET as a verify-only HS256 key of a set, or null when it is too short to be one. */
function legacySecretKey(secret: string): Jwk | null {
  const bytes = Buffer.from(secret, "utf8");
  if (bytes.length < LEAST_SYMMETRIC_KEY_BYTES) return null;
  return {
    kty: "oct",
    kid: LEGACY_SECRET_KID,
    use: "sig",
    key_ops: ["verify"],
    alg: "HS256",
    k: bytes.toString("base64url"),
  };
}

function currentSet(vars: Readonly<Record<string, string | undefined>>): Jwk[] | KeysOutcome {
  const text = vars[KEYS_VARIABLE];
  if (text === undefined || text.trim() === "") return fail(`${KEYS_VARIABLE} is not set: nothing to edit`);
  const checked = parseJwtKeys(text);
  if (!checked.ok) return fail(`${KEYS_VARIABLE}: ${checked.problems.join("; ")}`);
  return JSON.parse(text) as Jwk[];
}

const isSigning = (key: Jwk): boolean => Array.isArray(key.key_ops) && key.key_ops.includes("sign");
const verifyOnly = (key: Jwk): Jwk => ({ ...key, key_ops: ["verify"] });
const signing = (key: Jwk): Jwk => ({ ...key, key_ops: ["sign", "verify"] });

function printed(keys: Jwk[], notes: string[] = []): KeysOutcome {
  const text = JSON.stringify(keys);
  const checked = parseJwtKeys(text);
  if (!checked.ok) return fail(checked.problems.join("; "));
  return { ok: true, output: `${text}\n`, notes };
}

/**
 * A new set. A ring without an HS256 key refuses every token signed with JWT_SECRET, the `anon` and
 * `service_role` API keys included (403 bad_jwt); the secret kept as a verify-only key avoids that
 * (adapters/src/crypto/key-ring-signer.ts). When it cannot be kept, the note says so plainly.
 */
function newSet(key: Jwk, secret: string | undefined, values: { "without-secret"?: boolean }): KeysOutcome {
  const remake = `existing API keys (anon, service_role) and tokens signed with AUTHSVC_JWT_SECRET stop verifying (403 bad_jwt) once this set is in use: make new API keys with 'authsvc api-keys' after setting ${KEYS_VARIABLE}`;
  if (values["without-secret"]) return printed([key], [`without the secret: ${remake}`]);
  if (secret === undefined) return printed([key], [`no AUTHSVC_JWT_SECRET found: ${remake}`]);
  const legacy = legacySecretKey(secret);
  if (legacy === null)
    return printed(
      [key],
      [
        `AUTHSVC_JWT_SECRET is shorter than ${LEAST_SYMMETRIC_KEY_BYTES} bytes, too short for a key of the set: ${remake}`,
      ],
    );
  return printed(
    [key, legacy],
    [
      `AUTHSVC_JWT_SECRET is kept as the verify-only key "${LEGACY_SECRET_KID}": API keys signed with it keep working. Once they are re-made ('authsvc api-keys'), drop it with 'authsvc keys --remove ${LEGACY_SECRET_KID}'.`,
    ],
  );
}
