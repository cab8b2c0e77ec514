import { failures } from "../failures.js";
import { err, ok, type Result, resolveRedirect } from "../kernel/index.js";
import type { PkceChallenge } from "../pkce/index.js";
import type { SsoDeps } from "./deps.js";
import type { SsoProvider } from "./provider.js";

export interface StartSsoInput {
  readonly providerId?: string | undefined;
  readonly domain?: string | undefined;
  readonly redirectTo?: string | undefined;
  readonly pkce: PkceChallenge | null;
  /**
   * Where the browser goes back, chosen by the server itself (its hosted sign-in page), so not
   * checked against `SITE_URL` and `URI_ALLOW_LIST` as `redirectTo` is. Never from a request's body.
   */
  readonly ownReturn?: string | undefined;
}

type Deps = Pick<SsoDeps, "ssoProviders" | "relayStates" | "saml" | "clock" | "random" | "settings">;

/** The provider `POST /sso` names: by id, or by the domain it owns. */
async function targetOf(deps: Deps, input: StartSsoInput): Promise<Result<SsoProvider>> {
  const byId = input.providerId !== undefined && input.providerId !== "";
  const byDomain = input.domain !== undefined && input.domain !== "";
  if (byId && byDomain) return err(failures.ssoTargetAmbiguous());
  if (!byId && !byDomain) return err(failures.ssoTargetMissing());
  const provider = byId
    ? await deps.ssoProviders.findById(input.providerId ?? "")
    : await deps.ssoProviders.findByDomain(input.domain ?? "");
  if (provider === null) return err(byId ? failures.ssoProviderNotFound() : failures.ssoDomainNotFound());
  if (provider.disabled === true) return err(failures.ssoProviderDisabled());
  return ok(provider);
}

/**
 * `POST /sso`: starts an SP-initiated sign-in with the provider named by `provider_id` or `domain`
 * (exactly one). A relay state is stored — the AuthnRequest's ID, the checked redirect, the PKCE
 * challenge — and its id travels as `RelayState` with the signed AuthnRequest; the answer is the
 * identity provider's URL. The relay state is usable once, for `SAML_RELAY_STATE_VALIDITY_PERIOD`.
 */
export async function startSso(deps: Deps, input: StartSsoInput): Promise<Result<{ url: string }>> {
  if (!deps.settings.sso.enabled) return err(failures.samlDisabled());
  const target = await targetOf(deps, input);
  if (!target.ok) return target;
  const provider = target.value;
  // Checked here, unlike the reference (which checks at the ACS): a refused target fails before the
  // person has signed in at the identity provider rather than after.
  const redirectTo =
    input.ownReturn ??
    resolveRedirect(input.redirectTo, {
      siteUrl: deps.settings.siteUrl,
      allowList: deps.settings.uriAllowList,
    });
  const id = deps.random.uuid();
  const request = await deps.saml.authnRequest(provider, id);
  await deps.relayStates.create({
    id,
    providerId: provider.id,
    requestId: request.requestId,
    redirectTo,
    codeChallenge: input.pkce?.codeChallenge ?? null,
    codeChallengeMethod: input.pkce?.method ?? null,
    createdAt: deps.clock.now(),
  });
  return ok({ url: request.url });
}
