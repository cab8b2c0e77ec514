import { failures } from "../failures.js";
import { err, ok, type Result } from "../kernel/index.js";

/** `s256` (the verifier's SHA-256, base64url) or `plain` (the verifier itself), as RFC 7636. */
export type CodeChallengeMethod = "s256" | "plain";

/** What a client sends to start a PKCE flow: `code_challenge` and `code_challenge_method`. */
export interface PkceChallenge {
  readonly codeChallenge: string;
  readonly method: CodeChallengeMethod;
}

/**
 * One flow state row. `authCodeHash` is the SHA-256 of the code handed to the client (never the
 * code); it is set when the code is issued (`authCodeIssuedAt`). `referrer` is the `redirect_to` of an
 * external sign-in; `linkingTargetId` the signed-in user an external identity is to be linked to.
 */
export interface FlowState {
  readonly id: string;
  readonly userId: string | null;
  readonly authCodeHash: string | null;
  readonly codeChallenge: string | null;
  readonly codeChallengeMethod: CodeChallengeMethod | null;
  /** `email`, or the external provider's name. */
  readonly providerType: string;
  readonly providerAccessToken: string | null;
  readonly providerRefreshToken: string | null;
  /** The `amr` method of the session the code is exchanged for (`email/signup`, `oauth`, …). */
  readonly authenticationMethod: string;
  readonly authCodeIssuedAt: Date | null;
  readonly referrer: string | null;
  readonly linkingTargetId: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The prefix of a mailed link token that belongs to a PKCE flow (as the reference's `pkce_`). */
export const PKCE_PREFIX = "pkce_";

/** Seconds a flow state may wait: for the provider's callback, or for its code to be exchanged. */
export const FLOW_STATE_EXPIRY_SECONDS = 300;

const CHALLENGE = /^[a-zA-Z0-9._~-]+$/;

/**
 * Reads `code_challenge` and `code_challenge_method` as the reference does: both or neither (null: an
 * implicit flow), 43–128 characters of RFC 7636's alphabet, method `s256` or `plain` in any case.
 */
export function parsePkceChallenge(
  codeChallenge: string | undefined,
  method: string | undefined,
): Result<PkceChallenge | null> {
  if (!codeChallenge && !method) return ok(null);
  if (!codeChallenge || !method) return err(failures.pkceParamsIncomplete());
  if (codeChallenge.length < 43 || codeChallenge.length > 128) return err(failures.codeChallengeLength());
  if (!CHALLENGE.test(codeChallenge)) return err(failures.codeChallengeCharacters());
  const lower = method.toLowerCase();
  if (lower !== "s256" && lower !== "plain") return err(failures.codeChallengeMethodUnsupported());
  return ok({ codeChallenge, method: lower });
}

/** Whether a flow state started at `createdAt` or with a code issued at `issuedAt` is past its time. */
export function flowStateExpired(state: FlowState, now: Date): boolean {
  // A mailed link may be followed long after it was sent (it has its own lifetime, MAILER_OTP_EXP);
  // the code it yields must then be exchanged promptly. Without a code the state itself ages.
  const since = state.authCodeIssuedAt ?? state.createdAt;
  return now.getTime() > since.getTime() + FLOW_STATE_EXPIRY_SECONDS * 1000;
}

/** The `amr` method of the session a followed PKCE email link leads to, by the link's `type`. */
export function emailFlowMethod(linkType: string): string {
  return linkType === "signup" ? "email/signup" : linkType;
}
