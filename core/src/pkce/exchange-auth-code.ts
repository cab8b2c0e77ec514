import { actorUsername, isBanned } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, ok, type Result } from "../kernel/index.js";
import {
  defineGrant,
  issueSession,
  type SessionTokens,
  type StartedSession,
  signSession,
} from "../sessions/index.js";
import type { PkceDeps } from "./deps.js";
import { flowStateExpired } from "./flow-state.js";
import { verifierMatches } from "./verifier.js";

export interface ExchangeAuthCodeInput {
  readonly authCode: string;
  readonly codeVerifier: string;
}

/** The session, with the provider's tokens when the flow was an external sign-in. */
export interface ExchangedSession {
  readonly tokens: SessionTokens;
  readonly providerType: string;
  readonly authenticationMethod: string;
  readonly providerAccessToken: string | null;
  readonly providerRefreshToken: string | null;
}

/** What the exchange's transaction commits: the session, its access token not yet signed. */
type Exchanged = Omit<ExchangedSession, "tokens"> & { readonly started: StartedSession };

type Deps = Pick<PkceDeps, "store" | "clock" | "random" | "tokens" | "signer" | "settings">;

/**
 * `POST /token?grant_type=pkce`: exchanges an authorization code and the client's code verifier for
 * a session, once. Unknown or used code: 404 `flow_state_not_found`; issued more than 300 s ago:
 * 422 `flow_state_expired`; a verifier that does not answer the challenge: 400 `bad_code_verifier`
 * (the code stays usable, as the reference: only its holder can know the verifier).
 *
 * The flow state is locked and deleted in the transaction that issues the session: of two concurrent
 * exchanges of one code exactly one gets a session.
 */
export async function exchangeAuthCode(
  deps: Deps,
  input: ExchangeAuthCodeInput,
): Promise<Result<ExchangedSession>> {
  if (!input.authCode || !input.codeVerifier) return err(failures.pkceGrantIncomplete());
  const now = deps.clock.now();
  const codeHash = deps.tokens.hash(input.authCode);
  const exchanged = await deps.store.transaction(async (repos): Promise<Result<Exchanged>> => {
    const state = await repos.flowStates.lockByCode(codeHash);
    if (state === null || state.userId === null) return err(failures.flowStateNotFound());
    if (flowStateExpired(state, now)) return err(failures.flowStateExpired());
    const { codeChallenge, codeChallengeMethod } = state;
    if (
      codeChallenge === null ||
      codeChallengeMethod === null ||
      !verifierMatches(deps.tokens, codeChallenge, codeChallengeMethod, input.codeVerifier)
    ) {
      return err(failures.badCodeVerifier());
    }
    if (!(await repos.flowStates.delete(state.id))) return err(failures.flowStateNotFound());
    const user = await repos.users.lock(state.userId);
    // A code issued before its user was soft-deleted signs nobody in (the deletion also drops the
    // user's flow states; this covers an exchange that read the code first).
    if (user === null || user.deletedAt !== null) return err(failures.flowStateNotFound());
    if (isBanned(user, now)) return err(failures.userBannedAtTokenGrant());
    const signedIn = { ...user, lastSignInAt: now, updatedAt: now };
    await repos.users.update(signedIn);
    await repos.audit.record({
      action: "login",
      actorId: user.id,
      actorUsername: actorUsername(signedIn),
      traits: { provider_type: state.providerType },
      at: now,
    });
    const started = await issueSession(deps, repos, signedIn, state.authenticationMethod, now);
    return ok({
      started,
      providerType: state.providerType,
      authenticationMethod: state.authenticationMethod,
      providerAccessToken: state.providerAccessToken,
      providerRefreshToken: state.providerRefreshToken,
    });
  });
  if (!exchanged.ok) return exchanged;
  const { started, ...rest } = exchanged.value;
  // The custom access token hook runs once the exchange committed (see signSession).
  const signed = await signSession(deps, started);
  return signed.ok ? ok({ ...rest, tokens: signed.value }) : signed;
}

/** `POST /token?grant_type=pkce`. */
export const pkceGrant = defineGrant("pkce", exchangeAuthCode);
