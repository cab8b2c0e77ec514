import { failures } from "../failures.js";
import { err, ok, type Result, resolveRedirect } from "../kernel/index.js";
import { newFlowState, type PkceChallenge } from "../pkce/index.js";
import type { ExternalDeps } from "./deps.js";
import { checkLinkingAssurance } from "./steps/linking-assurance.js";

/** Query parameters the server controls: a client cannot override them at the provider. */
const RESERVED = new Set([
  "client_id",
  "client_secret",
  "redirect_uri",
  "response_type",
  "state",
  "code_challenge",
  "code_challenge_method",
  "code_verifier",
  "provider",
  "scopes",
  "redirect_to",
  "skip_http_redirect",
  "invite_token",
]);

export interface StartExternalSignInInput {
  readonly provider: string;
  /** Space-separated scopes added to the provider's defaults. */
  readonly scopes?: string | undefined;
  readonly redirectTo?: string | undefined;
  readonly pkce?: PkceChallenge | null | undefined;
  /** Every other query parameter; reserved ones are dropped, `workos_provider` becomes `provider`. */
  readonly query?: Readonly<Record<string, string>>;
  /** Manual linking: the signed-in user the identity will be linked to. */
  readonly linkingTargetId?: string | undefined;
  /** Manual linking: the session of that user's token (see `checkLinkingAssurance`). */
  readonly linkingSessionId?: string | null | undefined;
  /**
   * Where the browser goes back, chosen by the server itself (its hosted sign-in page, on its own
   * external URL), so not checked against `SITE_URL` and `URI_ALLOW_LIST` as `redirectTo` is. Never
   * from a request's parameters.
   */
  readonly ownReturn?: string | undefined;
}

/** Where the browser goes next, and what it must bring back to `/callback`. */
export interface StartedExternalSignIn {
  /** The provider's authorization URL. */
  readonly url: string;
  /** The OAuth `state`: the flow state's id. */
  readonly state: string;
  /**
   * The value the browser that starts the flow keeps (a cookie) and must present at `/callback`
   * (`tokens.flowBinding(state)`), so that nobody else's browser can complete the flow (RFC 9700
   * §4.7); null for manual linking, which a client starts with a bearer token, not a browser
   * navigation, and which is bound to the signed-in user instead.
   */
  readonly browserBinding: string | null;
}

/**
 * `GET /authorize` (and `GET /user/identities/authorize`): records a flow state — provider, checked
 * redirect, PKCE challenge, linking target — whose id is the OAuth `state` (usable once, for 300 s)
 * and answers the provider's authorization URL with the browser binding. An unknown or disabled
 * provider: 400.
 */
export async function startExternalSignIn(
  deps: Pick<ExternalDeps, "store" | "clock" | "random" | "settings" | "providers" | "tokens">,
  input: StartExternalSignInInput,
): Promise<Result<StartedExternalSignIn>> {
  const provider = await deps.providers.provider(input.provider);
  if (provider === null) return err(failures.providerNotEnabled());
  if (input.linkingTargetId !== undefined) {
    const assured = await checkLinkingAssurance(deps.store, input.linkingTargetId, input.linkingSessionId);
    if (!assured.ok) return assured;
  }
  const referrer =
    input.ownReturn ??
    resolveRedirect(input.redirectTo, {
      siteUrl: deps.settings.siteUrl,
      allowList: deps.settings.uriAllowList,
    });
  const extraParams: Record<string, string> = {};
  for (const [key, value] of Object.entries(input.query ?? {})) {
    if (key === "workos_provider") extraParams.provider = value;
    else if (!RESERVED.has(key.toLowerCase())) extraParams[key] = value;
  }
  const state = newFlowState(deps, {
    providerType: provider.name,
    authenticationMethod: "oauth",
    challenge: input.pkce ?? null,
    referrer,
    linkingTargetId: input.linkingTargetId ?? null,
    now: deps.clock.now(),
  });
  await deps.store.flowStates.create(state);
  const scopes = (input.scopes ?? "").split(/[\s,]+/).filter((s) => s !== "");
  return ok({
    url: provider.authorizationUrl({
      state: state.id,
      scopes,
      extraParams,
      codeVerifier: upstreamVerifier(deps, state.id),
    }),
    state: state.id,
    browserBinding: state.linkingTargetId === null ? deps.tokens.flowBinding(state.id) : null,
  });
}

/**
 * The PKCE verifier toward the provider for the flow `stateId`: the server's keyed hash of it, 43
 * base64url characters, as RFC 7636 asks. The provider sees the state, never the key.
 */
export function upstreamVerifier(deps: Pick<ExternalDeps, "tokens">, stateId: string): string {
  return deps.tokens.flowBinding(`upstream-pkce:${stateId}`);
}
