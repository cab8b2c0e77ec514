import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * HS256 with `JWT_SECRET` on node:crypto's synchronous HMAC, for the tokens this server signs.
 *
 * Why: jose runs HMAC through WebCrypto, which imports the key and schedules a crypto job for every
 * token — a CPU profile of GET /user put a fifth of the process's time there. A SHA-256 HMAC of a
 * few hundred bytes costs microseconds when computed in place.
 *
 * `verifyHs256` decides only what it can decide exactly as jose's `jwtVerify(token, key,
 * { algorithms: ["HS256"], requiredClaims: ["exp"] })` would: a compact JWS whose protected header is a
 * JSON object with `alg` "HS256" and neither `crit` nor `b64`. Everything else — another algorithm, a
 * header it does not read, malformed base64url — answers `undefined`, and the caller asks jose, whose
 * answer then stands. The checks kept: the algorithm allow-list (HS256 only, so never `none` nor an
 * asymmetric algorithm keyed with the secret), a constant-time signature comparison, a claims set that
 * is a JSON object of strict UTF-8, `exp` present and a number and not yet passed, `nbf` and `iat`
 * numbers when present and `nbf` not in the future (no clock tolerance, as jose's default). The
 * audience is checked where it always was (core's `authenticate`).
 */

/** Unpadded base64url: what a compact JWS is made of. */
const B64URL = /^[A-Za-z0-9_-]*$/;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
const HEADER = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url");

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function parseJson(segment: string): unknown {
  try {
    return JSON.parse(strictUtf8.decode(Buffer.from(segment, "base64url")));
  } catch {
    return undefined;
  }
}

/** A base64url segment jose decodes the same way (length 4k+1 cannot be base64). */
const decodable = (segment: string) => segment.length % 4 !== 1 && B64URL.test(segment);

/**
 * The claims of a valid token (`{ payload }`), `null` for a token jose would refuse too, or
 * `undefined` when this fast path does not decide (ask jose). `nowSeconds`: the current time in
 * Unix seconds, whole (jose floors it too).
 */
export function verifyHs256(
  token: string,
  key: Uint8Array,
  nowSeconds: number,
): { payload: Record<string, unknown> } | null | undefined {
  const first = token.indexOf(".");
  const second = token.indexOf(".", first + 1);
  if (first < 0 || second < 0 || token.indexOf(".", second + 1) >= 0) return undefined;
  const header = token.slice(0, first);
  const body = token.slice(first + 1, second);
  const signature = token.slice(second + 1);
  if (!decodable(header) || !decodable(body) || !decodable(signature)) return undefined;
  const protectedHeader = parseJson(header);
  if (
    !isObject(protectedHeader) ||
    protectedHeader.alg !== "HS256" ||
    "crit" in protectedHeader ||
    "b64" in protectedHeader
  ) {
    return undefined;
  }
  const expected = createHmac("sha256", key).update(token.slice(0, second)).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const payload = parseJson(body);
  if (!isObject(payload)) return null;
  const { exp, nbf, iat } = payload;
  if (typeof exp !== "number" || exp <= nowSeconds) return null;
  if (nbf !== undefined && (typeof nbf !== "number" || nbf > nowSeconds)) return null;
  if (iat !== undefined && typeof iat !== "number") return null;
  return { payload };
}

/**
 * Signs claims as jose's `new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" })` does:
 * the same header, the claims' JSON in their own order, the same bytes.
 */
export function signHs256(claims: Record<string, unknown>, key: Uint8Array): string {
  const input = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  return `${input}.${createHmac("sha256", key).update(input).digest("base64url")}`;
}
