import { afterFirstSignInRaces } from "../external/index.js";
import { failures } from "../failures.js";
import {
  type AuthError,
  err,
  isRedirectAllowed,
  isStorableText,
  isUuid,
  ok,
  parseAbsoluteUrl,
  type Result,
} from "../kernel/index.js";
import { newFlowState, type PkceChallenge, storeIssuedFlow } from "../pkce/index.js";
import { issueSession, type SessionTokens, signOutcome, type Unsigned } from "../sessions/index.js";
import { emailOf, identityDataOf, mappedClaims, userIdOf } from "./attributes.js";
import type { SsoDeps } from "./deps.js";
import type { SsoProvider } from "./provider.js";
import { ssoAccount, vetSsoAccount } from "./steps/sso-account.js";

export interface AcsInput {
  readonly samlResponse?: string | undefined;
  readonly relayState?: string | undefined;
  /** An HTTP-Artifact binding's artifact: not supported. */
  readonly samlArt?: string | undefined;
}

/** Where the browser goes: the redirect with a session (implicit) or a code (PKCE). */
export type AcsOutcome =
  | { readonly kind: "session"; readonly redirectTo: string; readonly tokens: SessionTokens }
  | { readonly kind: "code"; readonly redirectTo: string; readonly code: string };

/** How long a used assertion's ID is remembered; no assertion valid for longer is accepted. */
export const SAML_ASSERTION_MEMORY_SECONDS = 24 * 60 * 60;

type Deps = Pick<
  SsoDeps,
  | "store"
  | "clock"
  | "random"
  | "tokens"
  | "signer"
  | "hooks"
  | "settings"
  | "ssoProviders"
  | "relayStates"
  | "saml"
  | "samlAssertions"
>;

/** Which sign-in a response answers: the provider, the AuthnRequest it must answer, where to go after. */
interface Answering {
  readonly provider: SsoProvider;
  readonly inResponseTo: string | null;
  readonly redirectTo: string;
  readonly pkce: PkceChallenge | null;
}

/** An SP-initiated sign-in's relay state, taken (single use): a second post of it finds nothing. */
async function spInitiated(
  deps: Deps,
  id: string,
): Promise<Result<Omit<Answering, "provider"> & { providerId: string }>> {
  const state = await deps.relayStates.consume(id);
  if (state === null) return err(failures.samlRelayStateNotFound());
  const age = deps.clock.now().getTime() - state.createdAt.getTime();
  if (age > deps.settings.sso.relayStateValidityMs) return err(failures.samlRelayStateExpired());
  const pkce =
    state.codeChallenge !== null && state.codeChallengeMethod !== null
      ? { codeChallenge: state.codeChallenge, method: state.codeChallengeMethod }
      : null;
  return ok({
    providerId: state.providerId,
    inResponseTo: state.requestId,
    redirectTo: state.redirectTo,
    pkce,
  });
}

/** Whether RelayState reads as a URL (absolute, or a path): an IdP-initiated sign-in's target. */
function isUrlLike(text: string): boolean {
  if (text.startsWith("/")) return !text.startsWith("//");
  return parseAbsoluteUrl(text) !== null;
}

async function answering(deps: Deps, input: AcsInput): Promise<Result<Answering>> {
  const relay = input.relayState ?? "";
  const { settings } = deps;
  if (isUuid(relay)) {
    const state = await spInitiated(deps, relay);
    if (!state.ok) return state;
    const provider = await deps.ssoProviders.findById(state.value.providerId);
    if (provider === null) return err(failures.samlRelayStateNotFound());
    if (provider.disabled === true) return err(failures.ssoProviderDisabled());
    return ok({ ...state.value, provider });
  }
  if (relay !== "" && !isUrlLike(relay)) return err(failures.samlRelayStateInvalid());
  if (input.samlArt) return err(failures.samlArtifactRefused());
  if (!input.samlResponse) return err(failures.samlResponseMissing());
  // IdP-initiated: the response names its issuer, whose keys must then verify it.
  const issuer = deps.saml.issuerOf(input.samlResponse);
  if (issuer === null) return err(failures.samlResponseNotXml());
  // An EntityID Postgres cannot store (NUL, a lone surrogate) is no registered provider's.
  if (!isStorableText(issuer)) return err(failures.samlIdpNotFound());
  const provider = await deps.ssoProviders.findByEntityId(issuer);
  if (provider === null) return err(failures.samlIdpNotFound());
  if (provider.disabled === true) return err(failures.ssoProviderDisabled());
  const allow = { siteUrl: settings.siteUrl, allowList: settings.uriAllowList };
  const redirectTo = relay !== "" && isRedirectAllowed(relay, allow) ? relay : settings.siteUrl;
  return ok({ provider, inResponseTo: null, redirectTo, pkce: null });
}

/**
 * `POST /sso/saml/acs`: the identity provider's answer, posted by the browser (HTTP-POST binding).
 * A UUID `RelayState` is an SP-initiated sign-in: its relay state is taken (once; of two concurrent
 * posts exactly one finds it) and the response must answer its AuthnRequest. An empty or URL
 * `RelayState` is IdP-initiated: the provider is the one whose EntityID the response's Issuer names.
 * The response is verified (`SamlServiceProvider.verify`); its assertion ID is then spent, so the
 * same assertion never signs in twice (the reference relies on the relay state alone, which an
 * IdP-initiated response does not have). The account is the provider's identity's (`ssoAccount`); a
 * new one is first vetted by the before-user-created hook, as every sign-up is (`vetSsoAccount`);
 * the session's method is `sso/saml`; with a PKCE relay state a code is issued instead.
 * Every refusal is returned: the route sends the browser to SITE_URL with it.
 */
export async function acceptSamlResponse(deps: Deps, input: AcsInput): Promise<Result<AcsOutcome>> {
  if (!deps.settings.sso.enabled) return err(failures.samlDisabled());
  const found = await answering(deps, input);
  if (!found.ok) return found;
  const { provider, inResponseTo, redirectTo, pkce } = found.value;
  if (!input.samlResponse) return err(failures.samlResponseMissing());
  const verified = await deps.saml.verify({ samlResponse: input.samlResponse, provider, inResponseTo });
  if (!verified.ok) return err(failures.samlAssertionInvalid(verified.error));
  const assertion = verified.value;
  // Its ID is remembered for a day: an assertion valid longer (or for ever) could be replayed after.
  const limit = deps.clock.now().getTime() + SAML_ASSERTION_MEMORY_SECONDS * 1000;
  if (assertion.notOnOrAfter === null || assertion.notOnOrAfter.getTime() > limit) {
    return err(failures.samlAssertionInvalid("its validity must end, within a day"));
  }
  // A session the identity provider already ended is not started (the reference starts it, ended).
  if (assertion.sessionNotOnOrAfter !== null && assertion.sessionNotOnOrAfter <= deps.clock.now()) {
    return err(failures.samlAssertionInvalid("its session has already ended (SessionNotOnOrAfter)"));
  }
  if (!(await deps.samlAssertions.take(deps.tokens.hash(`saml\n${provider.entityId}\n${assertion.id}`)))) {
    return err(failures.samlAssertionReplayed());
  }
  const subject = userIdOf(assertion);
  if (subject === null) return err(failures.samlAssertionNoUserId());
  const claims = mappedClaims(assertion, provider.attributeMapping);
  const email = emailOf(assertion, claims);
  if (email === null) return err(failures.samlAssertionNoEmail());
  const now = deps.clock.now();
  const person = {
    provider: `sso:${provider.id}`,
    subject,
    email,
    identityData: identityDataOf(claims, { sub: subject, iss: provider.entityId, email }),
    now,
  };
  // The before-user-created hook runs with no transaction open; its refusal leaves nothing behind.
  const vetted = await vetSsoAccount(deps, person);
  if (!vetted.ok) return vetted;
  const outcome = await afterFirstSignInRaces(() =>
    deps.store.transaction(async (repos): Promise<Result<Unsigned<AcsOutcome>, AuthError>> => {
      const account = await ssoAccount(deps, repos, person, vetted.value);
      if (!account.ok) return account;
      const user = account.value;
      if (pkce !== null) {
        const state = newFlowState(deps, {
          providerType: "sso/saml",
          authenticationMethod: "sso/saml",
          challenge: pkce,
          referrer: redirectTo,
          userId: user.id,
          now,
        });
        return ok({ kind: "code", redirectTo, code: await storeIssuedFlow(deps, repos, state, now) });
      }
      return ok({
        kind: "session",
        redirectTo,
        tokens: await issueSession(deps, repos, user, "sso/saml", now, assertion.sessionNotOnOrAfter),
      });
    }),
  );
  if (!outcome.ok) return outcome;
  // The custom access token hook runs once the sign-in committed (see signSession).
  return signOutcome<AcsOutcome>(deps, outcome.value);
}
