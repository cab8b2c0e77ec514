import {
  createPrivateKey,
  createPublicKey,
  createSecretKey,
  type JsonWebKey,
  type KeyObject,
  sign as nodeSign,
  verify as nodeVerify,
} from "node:crypto";

/**
 * The signing algorithms a JWK of `JWT_KEYS` may name: the reference server's list
 * (internal/conf/jwk.go `GetSigningAlg`), each tied to the key type and curve it needs.
 */
export const JWT_KEY_ALGORITHMS = ["HS256", "RS256", "RS512", "ES256", "ES512", "EdDSA"] as const;
export type JwtKeyAlgorithm = (typeof JWT_KEY_ALGORITHMS)[number];

const SHAPE: Readonly<Record<JwtKeyAlgorithm, { kty: string; crv?: string; hash: string | null }>> = {
  HS256: { kty: "oct", hash: "sha256" },
  RS256: { kty: "RSA", hash: "sha256" },
  RS512: { kty: "RSA", hash: "sha512" },
  ES256: { kty: "EC", crv: "P-256", hash: "sha256" },
  ES512: { kty: "EC", crv: "P-521", hash: "sha512" },
  EdDSA: { kty: "OKP", crv: "Ed25519", hash: null },
};

/** RFC 7518 §3.2: an HMAC key at least as long as the hash output (32 bytes for HS256). */
export const LEAST_SYMMETRIC_KEY_BYTES = 32;
/** RFC 7518 §3.3, and what jose accepts: RSA moduli of 2048 bits or more. */
const LEAST_RSA_MODULUS_BITS = 2048;
/** The public parameters of each key type: what `/.well-known/jwks.json` may publish, nothing more. */
const PUBLIC_PARAMS: Readonly<Record<string, readonly string[]>> = {
  RSA: ["n", "e"],
  EC: ["crv", "x", "y"],
  OKP: ["crv", "x"],
};

/** One key of the ring, ready for jose. */
export interface JwtKey {
  readonly kid: string;
  readonly alg: JwtKeyAlgorithm;
  /** `key_ops` contains "sign": the key that signs new tokens (exactly one per ring). */
  readonly signs: boolean;
  /** Private (or secret) key; undefined for a public-only key, which only verifies. */
  readonly signingKey: KeyObject | undefined;
  /** Public (or secret) key that verifies tokens naming this key's `kid`. */
  readonly verifyingKey: KeyObject;
  /** The public JWK served by `/.well-known/jwks.json`; undefined for symmetric keys, never published. */
  readonly publicJwk: Readonly<Record<string, unknown>> | undefined;
}

export interface JwtKeyRing {
  /** The one key whose `key_ops` contain "sign". */
  readonly signing: JwtKey & { readonly signingKey: KeyObject };
  /** Every key, signing one included, by `kid`: each verifies the tokens that name it. */
  readonly byKid: ReadonlyMap<string, JwtKey>;
}

export type JwtKeysResult = { ok: true; ring: JwtKeyRing } | { ok: false; problems: string[] };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads `JWT_KEYS`: a JSON array of JWKs, as the reference server takes them. Every problem is
 * reported (never the key material itself), so a wrong set is fixed in one round:
 * unknown or missing `alg`, a key type or curve that does not match it, a missing or repeated `kid`,
 * `use` other than "sig", unknown `key_ops`, a symmetric key under 32 bytes, an RSA modulus under
 * 2048 bits, key material that does not load or whose private part does not match its public part,
 * a public-only key marked to sign, and anything but exactly one signing key.
 */
export function parseJwtKeys(text: string): JwtKeysResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [`expected a JSON array of JWKs (${(error as Error).message})`] };
  }
  if (!Array.isArray(parsed) || parsed.length === 0) {
    return { ok: false, problems: ["expected a non-empty JSON array of JWKs"] };
  }
  const problems: string[] = [];
  const byKid = new Map<string, JwtKey>();
  parsed.forEach((value, index) => {
    const key = readKey(value, `key ${index + 1}`, problems);
    if (key === undefined) return;
    if (byKid.has(key.kid)) problems.push(`key ${index + 1}: kid "${key.kid}" is used by an earlier key`);
    else byKid.set(key.kid, key);
  });
  const signers = [...byKid.values()].filter((key) => key.signs);
  if (problems.length === 0 && signers.length !== 1) {
    problems.push(
      signers.length === 0
        ? 'no signing key: exactly one key needs "sign" in its key_ops'
        : `${signers.length} signing keys (${signers.map((k) => `"${k.kid}"`).join(", ")}): exactly one key may have "sign" in its key_ops; give the others ["verify"]`,
    );
  }
  const signing = signers[0];
  if (problems.length > 0 || signing?.signingKey === undefined) return { ok: false, problems };
  return { ok: true, ring: { signing: { ...signing, signingKey: signing.signingKey }, byKid } };
}

function readKey(value: unknown, label: string, problems: string[]): JwtKey | undefined {
  if (!isObject(value)) {
    problems.push(`${label}: expected a JWK (a JSON object)`);
    return undefined;
  }
  const before = problems.length;
  const fail = (message: string) => problems.push(`${label}: ${message}`);
  const { kid, alg, use, key_ops: keyOps } = value;
  if (typeof kid !== "string" || kid.trim() === "") fail("kid is required (a non-empty string)");
  const name = typeof kid === "string" && kid !== "" ? `${label} (kid "${kid}")` : label;
  const failKey = (message: string) => problems.push(`${name}: ${message}`);
  if (!(JWT_KEY_ALGORITHMS as readonly unknown[]).includes(alg)) {
    failKey(
      alg === undefined
        ? `alg is required (one of ${JWT_KEY_ALGORITHMS.join(", ")})`
        : `alg ${JSON.stringify(alg)} is not supported (expected one of ${JWT_KEY_ALGORITHMS.join(", ")})`,
    );
  }
  if (use !== undefined && use !== "sig") failKey(`use must be "sig", got ${JSON.stringify(use)}`);
  const ops = readKeyOps(keyOps, failKey);
  if (problems.length > before) return undefined;
  const algorithm = alg as JwtKeyAlgorithm;
  const shape = SHAPE[algorithm];
  if (value.kty !== shape.kty || (shape.crv !== undefined && value.crv !== shape.crv)) {
    const wanted =
      shape.crv === undefined ? `kty "${shape.kty}"` : `kty "${shape.kty}" with crv "${shape.crv}"`;
    failKey(`alg ${algorithm} needs ${wanted}`);
    return undefined;
  }
  const signs = ops.includes("sign");
  const material =
    shape.kty === "oct" ? symmetricKey(value, failKey) : asymmetricKey(value, algorithm, signs, failKey);
  if (material === undefined) return undefined;
  return { kid: kid as string, alg: algorithm, signs, ...material };
}

function readKeyOps(keyOps: unknown, fail: (message: string) => void): readonly string[] {
  // Without key_ops a key only verifies, as in the reference (only "sign" picks the signer).
  if (keyOps === undefined) return [];
  if (!Array.isArray(keyOps) || !keyOps.every((op): op is string => op === "sign" || op === "verify")) {
    fail('key_ops must be an array of "sign" and "verify"');
    return [];
  }
  return keyOps;
}

type Material = Pick<JwtKey, "signingKey" | "verifyingKey" | "publicJwk">;

function symmetricKey(jwk: Record<string, unknown>, fail: (message: string) => void): Material | undefined {
  const bytes = typeof jwk.k === "string" ? Buffer.from(jwk.k, "base64url") : Buffer.alloc(0);
  if (bytes.length < LEAST_SYMMETRIC_KEY_BYTES) {
    fail(`"k" must hold at least ${LEAST_SYMMETRIC_KEY_BYTES} bytes (base64url), got ${bytes.length}`);
    return undefined;
  }
  const secret = createSecretKey(bytes);
  // A shared secret is never published: anyone holding it could sign.
  return { signingKey: secret, verifyingKey: secret, publicJwk: undefined };
}

function asymmetricKey(
  jwk: Record<string, unknown>,
  alg: JwtKeyAlgorithm,
  signs: boolean,
  fail: (message: string) => void,
): Material | undefined {
  const publicParams = PUBLIC_PARAMS[jwk.kty as string] ?? [];
  const publicPart = Object.fromEntries(publicParams.map((param) => [param, jwk[param]]));
  let verifyingKey: KeyObject;
  let signingKey: KeyObject | undefined;
  try {
    verifyingKey = createPublicKey({ key: { kty: jwk.kty, ...publicPart } as JsonWebKey, format: "jwk" });
    if (jwk.d !== undefined) signingKey = createPrivateKey({ key: jwk as JsonWebKey, format: "jwk" });
  } catch (error) {
    fail(`the key material does not load (${(error as Error).message})`);
    return undefined;
  }
  const modulus = verifyingKey.asymmetricKeyDetails?.modulusLength;
  if (modulus !== undefined && modulus < LEAST_RSA_MODULUS_BITS) {
    fail(`an RSA modulus of ${modulus} bits is too short (at least ${LEAST_RSA_MODULUS_BITS})`);
    return undefined;
  }
  if (signingKey === undefined && signs) {
    fail('is a public key (no "d"), so it cannot sign: add its private part, or give it key_ops ["verify"]');
    return undefined;
  }
  if (signingKey !== undefined && !privateMatchesPublic(signingKey, verifyingKey, alg)) {
    fail("its private part does not match its public part");
    return undefined;
  }
  const publicJwk = { kty: jwk.kty, ...publicPart, kid: jwk.kid, alg, use: "sig", key_ops: ["verify"] };
  return { signingKey, verifyingKey, publicJwk };
}

/** A probe signature: a JWK whose `d` belongs to another key would sign tokens nobody can verify. */
function privateMatchesPublic(privateKey: KeyObject, publicKey: KeyObject, alg: JwtKeyAlgorithm): boolean {
  const probe = Buffer.from("authsvc key probe");
  const { hash } = SHAPE[alg];
  try {
    return nodeVerify(hash, probe, publicKey, nodeSign(hash, probe, privateKey));
  } catch {
    return false;
  }
}
