import { constantTimeEqual, type SecretTokens } from "../kernel/index.js";
import type { CodeChallengeMethod } from "./flow-state.js";

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** base64url without padding of the bytes spelled by `hex` (RFC 4648 §5). */
export function hexToBase64Url(hex: string): string {
  const bytes: number[] = [];
  for (let i = 0; i + 1 < hex.length; i += 2) bytes.push(Number.parseInt(hex.slice(i, i + 2), 16));
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const [a = 0, b = 0, c = 0] = [bytes[i], bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | (b << 8) | c;
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let j = 0; j < chars; j++) out += BASE64URL[(n >> (18 - 6 * j)) & 63];
  }
  return out;
}

/**
 * Whether `verifier` answers `challenge` (RFC 7636 §4.6): for `s256` the base64url SHA-256 of the
 * verifier must equal the challenge, for `plain` the verifier itself. Compared in constant time.
 */
export function verifierMatches(
  tokens: Pick<SecretTokens, "hash">,
  challenge: string,
  method: CodeChallengeMethod,
  verifier: string,
): boolean {
  const expected = method === "s256" ? hexToBase64Url(tokens.hash(verifier)) : verifier;
  return constantTimeEqual(challenge, expected);
}
