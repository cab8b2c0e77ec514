import type { User } from "../accounts/index.js";
import { failures } from "../failures.js";
import { AuthError, constantTimeEqual, err, isUuid, Outbox, ok, type Result } from "../kernel/index.js";
import { type NotifyDeps, notifyAccountChange } from "../messaging/index.js";
import { flowStateExpired, storeIssuedFlow } from "../pkce/index.js";
import { issueSession, type SessionTokens, signOutcome, type Unsigned } from "../sessions/index.js";
import type { ExternalDeps, ExternalRepositories } from "./deps.js";
import type { ProviderTokens } from "./ports/external-provider.js";
import { upstreamVerifier } from "./start-external-sign-in.js";
import { commitThenSend } from "./steps/commit-then-send.js";
import { vetExternalAccount } from "./steps/external-account.js";
import { afterFirstSignInRaces } from "./steps/first-sign-in-race.js";
import { signInAccount } from "./steps/sign-in-account.js";

export interface CallbackInput {
  readonly state?: string | undefined;
  readonly code?: string | undefined;
  /** The provider's own refusal (`error`, `error_description`), e.g. `access_denied` when consent is denied. */
  readonly error?: string | undefined;
  readonly errorDescription?: string | undefined;
  /** Apple's first-sign-in `user` form field. */
  readonly formUser?: string | undefined;
  /** What the browser brought back of `StartedExternalSignIn.browserBinding` (its cookie), if anything. */
  readonly browserBinding?: string | undefined;
}

/** Where the browser goes: the flow's redirect with a session (implicit) or a code (PKCE). */
export type CallbackOutcome =
  | {
      readonly kind: "session";
      readonly redirectTo: string;
      readonly tokens: SessionTokens;
      readonly provider: ProviderTokens;
    }
  | { readonly kind: "code"; readonly redirectTo: string; readonly code: string };

/**
 * A refused callback and where its error goes: the flow's redirect once the state is known, else
 * SITE_URL (`stateKnown` false, where the reference answers 303 with the error in the query only).
 * The provider's own refusal (`providerError`) is passed on as it came, without an `error_code`.
 */
export type CallbackFailure = { readonly redirectTo: string; readonly stateKnown: boolean } & (
  | { readonly error: AuthError }
  | { readonly providerError: { readonly error: string; readonly description: string } }
);

type Deps = Pick<
  ExternalDeps,
  "store" | "clock" | "random" | "tokens" | "signer" | "mailer" | "settings" | "providers" | "deliveries"
> &
  Pick<NotifyDeps, "settings">;

/**
 * `GET|POST /callback`: the provider sends the browser back with `state` and `code`. The flow state is
 * consumed (a replayed or unknown state is 400 `bad_oauth_state`; older than 300 s too; a sign-in
 * flow the browser cannot prove it started, by its browser binding, too), the code is
 * exchanged and the person fetched through the provider — outside any transaction — and then, in one
 * transaction, the account is found, linked or created (`externalAccount`), or the identity linked to
 * the flow's target user, and a session issued (implicit flow, amr `oauth`) or a code stored for
 * `grant_type=pkce` with the provider's tokens.
 */
export async function completeExternalSignIn(
  deps: Deps,
  input: CallbackInput,
): Promise<Result<CallbackOutcome, CallbackFailure>> {
  const site = deps.settings.siteUrl;
  const early = (error: AuthError) => err({ error, redirectTo: site, stateKnown: false });
  if (!input.state) return early(failures.oauthStateMissing());
  if (!isUuid(input.state)) return early(failures.oauthStateInvalid());
  const state = await deps.store.flowStates.consume(input.state);
  if (state === null) return early(failures.oauthStateNotFound());
  const now = deps.clock.now();
  if (flowStateExpired(state, now)) return early(failures.oauthStateExpired());
  const redirectTo = state.referrer ?? site;
  const fail = (error: AuthError) => err({ error, redirectTo, stateKnown: true });
  // Another browser (one the flow's link or the provider's answer was passed to) cannot complete a
  // sign-in flow: it would sign that browser into the starter's account (login CSRF) or hand the
  // starter's account a code meant for someone else. Checked before the provider is called.
  if (state.linkingTargetId === null) {
    const expected = deps.tokens.flowBinding(state.id);
    if (!input.browserBinding || !constantTimeEqual(input.browserBinding, expected)) {
      return fail(failures.oauthStateOtherBrowser());
    }
  }
  if (input.error) {
    const providerError = { error: input.error, description: input.errorDescription ?? "" };
    return err({ providerError, redirectTo, stateKnown: true });
  }
  if (!input.code) return fail(failures.oauthCodeMissing());
  const provider = await deps.providers.provider(state.providerType);
  if (provider === null) return fail(failures.oauthProviderGone());

  let tokens: ProviderTokens;
  let person: Awaited<ReturnType<typeof provider.fetchUser>>;
  try {
    tokens = await provider.exchangeCode(input.code, upstreamVerifier(deps, state.id));
    person = await provider.fetchUser(tokens);
    if (input.formUser && provider.withCallbackUser)
      person = provider.withCallbackUser(person, input.formUser);
  } catch (thrown) {
    if (thrown instanceof AuthError) return fail(thrown);
    throw thrown;
  }
  const addressless = person.emails.length === 0;
  if (addressless && provider.emailOptional !== true) return fail(failures.externalEmailMissing());

  // A confirmation mail leaves only once the transaction has committed.
  const vetted =
    state.linkingTargetId === null
      ? await vetExternalAccount(deps, { provider: provider.name, person, now })
      : ok(null);
  if (!vetted.ok) return fail(vetted.error);
  /** The user an identity was linked to (manual linking), once committed. */
  const linkedTo: User[] = [];
  const outcome = await afterFirstSignInRaces(() => {
    const outbox = new Outbox<ExternalRepositories>();
    return commitThenSend(deps.store, outbox, async (repos): Promise<Result<Unsigned<CallbackOutcome>>> => {
      const account = await signInAccount(deps, repos, {
        linkTargetId: state.linkingTargetId,
        provider: provider.name,
        person,
        redirectTo,
        now,
        outbox,
        vetted: vetted.value,
        addressless,
      });
      if (!account.ok) return account;
      if (state.linkingTargetId !== null) linkedTo.splice(0, linkedTo.length, account.value);
      if (state.codeChallenge !== null) {
        const code = await storeIssuedFlow(
          deps,
          repos,
          {
            ...state,
            userId: account.value.id,
            providerAccessToken: tokens.accessToken,
            providerRefreshToken: tokens.refreshToken,
          },
          now,
        );
        return ok({ kind: "code", redirectTo, code });
      }
      const user = { ...account.value, lastSignInAt: now };
      await repos.users.update(user);
      const session = await issueSession(deps, repos, user, "oauth", now);
      return ok({ kind: "session", redirectTo, tokens: session, provider: tokens });
    });
  });
  // The custom access token hook runs once the sign-in committed (see signSession).
  if (!outcome.ok) return fail(outcome.error);
  for (const user of linkedTo) {
    await notifyAccountChange(
      deps,
      user,
      { kind: "identity_linked_notification", provider: provider.name },
      now,
    );
  }
  const signed = await signOutcome(deps, outcome.value);
  return signed.ok ? signed : fail(signed.error);
}
