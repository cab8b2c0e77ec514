import { failures } from "../failures.js";
import { AuthError, constantTimeEqual, err, Outbox, ok, type Result } from "../kernel/index.js";
import {
  defineGrant,
  issueSession,
  type SessionTokens,
  type StartedSession,
  signSession,
} from "../sessions/index.js";
import type { ExternalDeps, ExternalRepositories } from "./deps.js";
import type { ExternalUser } from "./ports/external-provider.js";
import { commitThenSend } from "./steps/commit-then-send.js";
import { vetExternalAccount } from "./steps/external-account.js";
import { afterFirstSignInRaces } from "./steps/first-sign-in-race.js";
import { checkLinkingAssurance } from "./steps/linking-assurance.js";
import { signInAccount } from "./steps/sign-in-account.js";

export interface IdTokenSignInInput {
  readonly provider: string;
  readonly idToken: string;
  /** The raw nonce the client put, hashed, into the ID token request. */
  readonly nonce?: string | undefined;
  /** `link_identity` with a signed-in user: link instead of signing in anew. */
  readonly linkTargetId?: string | undefined;
  /** With `linkTargetId`: the session of that user's token (see `checkLinkingAssurance`). */
  readonly linkSessionId?: string | null | undefined;
}

type Deps = Pick<
  ExternalDeps,
  "store" | "clock" | "random" | "tokens" | "signer" | "mailer" | "settings" | "providers"
>;

/**
 * `POST /token?grant_type=id_token`: signs in with an OpenID provider's ID token (`signInWithIdToken`).
 * The provider's verifier checks signature (its published keys), issuer, audience and expiry. Then
 * the nonce rule: the token's `nonce` claim and the `nonce` parameter are both present or both absent,
 * and the claim is the lowercase hex SHA-256 of the parameter (compared in constant time). Then the
 * account is found, linked or created as for the callback — or, with `link_identity` (manual linking
 * enabled), the identity is linked to the signed-in user — and a session issued (amr `oauth`).
 */
export async function signInWithIdToken(
  deps: Deps,
  input: IdTokenSignInInput,
): Promise<Result<SessionTokens>> {
  const verifier = await deps.providers.idTokenVerifier(input.provider);
  if (verifier === null) return err(failures.idTokenProviderDisabled(input.provider));
  if (input.linkTargetId !== undefined && !deps.settings.manualLinkingEnabled) {
    return err(failures.manualLinkingDisabled());
  }
  let person: ExternalUser;
  let claimedNonce: string | null;
  try {
    ({ user: person, nonce: claimedNonce } = await verifier.verify(input.idToken));
  } catch (thrown) {
    if (thrown instanceof AuthError) return err(thrown);
    throw thrown;
  }
  if (!verifier.skipNonceCheck) {
    const given = input.nonce ?? "";
    const claimed = claimedNonce ?? "";
    if ((given === "") !== (claimed === "")) return err(failures.idTokenNonceBothOrNeither());
    // The client sends the raw nonce and put its hash in the request to the provider: a replayed
    // token fails unless the replayer also holds the raw nonce.
    if (given !== "" && !constantTimeEqual(deps.tokens.hash(given), claimed.toLowerCase())) {
      return err(failures.idTokenNonceMismatch());
    }
  }
  if (input.linkTargetId !== undefined) {
    const assured = await checkLinkingAssurance(deps.store, input.linkTargetId, input.linkSessionId);
    if (!assured.ok) return assured;
  }
  const now = deps.clock.now();
  const redirectTo = deps.settings.siteUrl;
  // A confirmation mail leaves only once the transaction has committed.
  const vetted =
    input.linkTargetId === undefined
      ? await vetExternalAccount(deps, { provider: verifier.name, person, now })
      : ok(null);
  if (!vetted.ok) return vetted;
  const started = await afterFirstSignInRaces(() => {
    const outbox = new Outbox<ExternalRepositories>();
    return commitThenSend(deps.store, outbox, async (repos): Promise<Result<StartedSession>> => {
      const account = await signInAccount(deps, repos, {
        linkTargetId: input.linkTargetId ?? null,
        provider: verifier.name,
        person,
        redirectTo,
        now,
        outbox,
        vetted: vetted.value,
        addressless: verifier.emailOptional === true && person.emails.length === 0,
      });
      if (!account.ok) return account;
      const user = { ...account.value, lastSignInAt: now };
      await repos.users.update(user);
      return ok(await issueSession(deps, repos, user, "oauth", now));
    });
  });
  // The custom access token hook runs once the sign-in committed (see signSession).
  return started.ok ? signSession(deps, started.value) : started;
}

/** `POST /token?grant_type=id_token`. */
export const idTokenGrant = defineGrant("id_token", signInWithIdToken);
