import { parseArgs } from "node:util";
import { generateJwtKey, JWT_KEY_ALGORITHMS, type JwtKeyAlgorithm, parseJwtKeys } from "@authsvc/adapters";

export const KEYS_USAGE = `usage: authsvc keys [--alg ${JWT_KEY_ALGORITHMS.join("|")}] [--add [--standby]]
       authsvc keys --promote <kid> | --remove <kid>

Prints a value for AUTHSVC_JWT_KEYS (one line of JSON) on stdout.
  (no option)       a new set of one signing key (ES256 unless --alg)
  --add             the current AUTHSVC_JWT_KEYS plus a new key; without --standby the new key
                    signs and the current signing key only verifies
  --standby         with --add: the new key only verifies (published before it signs)
  --promote <kid>   the current set with <kid> signing and every other key verifying
  --remove <kid>    the current set without <kid> (never the signing key)
Rotation: --add --standby, wait 10 minutes (JWKS caches), --promote, wait JWT_EXP, --remove.`;

const KEYS_VARIABLE = "AUTHSVC_JWT_KEYS";

export type KeysOutcome = { ok: true; output: string } | { ok: false; error: string };

const fail = (error: string): KeysOutcome => ({ ok: false, error });

/**
 * `authsvc keys`: generates and edits key sets for `AUTHSVC_JWT_KEYS`, so an operator never writes
 * a JWK by hand. Pure apart from key generation: `vars` is the environment (with `.env`), the
 * outcome is what to print. Every set it prints has passed the same check as at start.
 */
export function keysCommand(
  args: readonly string[],
  vars: Readonly<Record<string, string | undefined>>,
): KeysOutcome {
  let values: { alg?: string; add?: boolean; standby?: boolean; promote?: string; remove?: string };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        alg: { type: "string" },
        add: { type: "boolean" },
        standby: { type: "boolean" },
        promote: { type: "string" },
        remove: { type: "string" },
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

  if (modes.length === 0) return printed([generateJwtKey(alg as JwtKeyAlgorithm)]);
  const current = currentSet(vars);
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

function printed(keys: Jwk[]): KeysOutcome {
  const text = JSON.stringify(keys);
  const checked = parseJwtKeys(text);
  if (!checked.ok) return fail(checked.problems.join("; "));
  return { ok: true, output: `${text}\n` };
}
