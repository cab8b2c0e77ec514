import { failures } from "@authsvc/core";
import {
  type CallbackFailure,
  completeExternalSignIn,
  startExternalSignIn,
  unlinkIdentity,
} from "@authsvc/core/external";
import { parsePkceChallenge } from "@authsvc/core/pkce";
import type { Context } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import { unwrap } from "../../http/body.js";
import { statusOf } from "../../http/errors.js";
import { setFlowCookie, takeFlowCookie } from "../../http/flow-cookie.js";
import { logLogin } from "../../http/login-log.js";
import { requireUser } from "../../http/middleware/auth.js";
import { redirect, ref } from "../../http/operation.js";
import { errorUrl, oauthErrorWord, sessionFragmentUrl, withQuery } from "../../http/redirects.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";

/** The `/authorize` query as the use case takes it: the named parameters, everything else forwarded. */
function authorizeInput(c: Context<AppEnv>) {
  const {
    provider = "",
    scopes,
    redirect_to,
    code_challenge,
    code_challenge_method,
    ...query
  } = c.req.query();
  const pkce = unwrap(parsePkceChallenge(code_challenge, code_challenge_method));
  return { provider, scopes, redirectTo: redirect_to, pkce, query };
}

/** Where a refused callback sends the browser (reference `redirectErrors` / `loadFlowState`). */
function failureRedirect(c: Context<AppEnv>, failure: CallbackFailure) {
  if ("providerError" in failure) {
    const { error, description } = failure.providerError;
    return c.redirect(errorUrl(failure.redirectTo, { error, error_description: description }), 302);
  }
  const { error } = failure;
  if (statusOf(c, error) >= 500) c.get("log").error({ err: error }, "external sign-in failed");
  const values = {
    error: oauthErrorWord(c, error),
    error_code: error.code,
    error_description: error.message,
  };
  // An unknown state gives no redirect to trust: SITE_URL, with the error in the query only.
  if (!failure.stateKnown) return c.redirect(errorUrl(failure.redirectTo, values, false), 303);
  return c.redirect(errorUrl(failure.redirectTo, values), 302);
}

async function callback(c: Context<AppEnv>, params: Record<string, string | undefined>) {
  const result = await completeExternalSignIn(c.get("deps"), {
    state: params.state,
    code: params.code,
    error: params.error,
    errorDescription: params.error_description,
    formUser: params.user,
    browserBinding: takeFlowCookie(c, params.state),
  });
  if (!result.ok) return failureRedirect(c, result.error);
  const outcome = result.value;
  if (outcome.kind === "code") return c.redirect(withQuery(outcome.redirectTo, { code: outcome.code }), 302);
  const { tokens, provider } = outcome;
  logLogin(c, { method: "oauth", userId: tokens.user.id });
  const extra = {
    provider_token: provider.accessToken,
    ...(provider.refreshToken ? { provider_refresh_token: provider.refreshToken } : {}),
  };
  return c.redirect(sessionFragmentUrl(outcome.redirectTo, tokens, extra), 302);
}

const authorizeQuery = [
  { name: "provider", description: "The provider's name (`github`, `google`, …).", required: true },
  { name: "scopes", description: "Scopes to ask for besides the provider's defaults, space-separated." },
  {
    name: "redirect_to",
    description: "Where the browser lands afterwards; must match `SITE_URL` or `URI_ALLOW_LIST`.",
  },
  {
    name: "code_challenge",
    description: "PKCE: the challenge; the session is then exchanged for a `?code=`.",
  },
  {
    name: "code_challenge_method",
    description: "PKCE: `s256` or `plain`.",
    schema: { enum: ["s256", "plain", "S256"] },
  },
];
const callbackFields = {
  state: { type: "string" },
  code: { type: "string" },
  error: { type: "string" },
  error_description: { type: "string" },
  user: { type: "string", description: "Apple's first-sign-in user (JSON), with `response_mode=form_post`." },
};
const toRedirect = redirect("To `redirect_to` with the session in the fragment, a `?code=`, or the error.");

const signedIn = ({ auth }: ModuleContext) => requireUser(auth);
/** What both forms of the callback answer. */
const callbackAnswers = {
  302: toRedirect,
  303: redirect("To `SITE_URL` with the error: the state was unknown."),
};

/**
 * External sign-in and identity linking: `GET /authorize`, `GET|POST /callback`,
 * `GET /user/identities/authorize`, `DELETE /user/identities/{id}`.
 */
export const externalEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: "/authorize",
      summary: "Starts a sign-in with an external provider: to the provider's consent page.",
      access: "public",
      limited: true,
      query: authorizeQuery,
      responses: { 302: redirect("To the provider.") },
      errors: [400, 404],
    },
    () => [
      async (c) => {
        const started = unwrap(await startExternalSignIn(c.get("deps"), authorizeInput(c)));
        setFlowCookie(c, started);
        return c.redirect(started.url, 302);
      },
    ],
    { limit: { name: "authorize", per5Min: "authorize" } },
  ),
  endpoint(
    {
      method: "get",
      path: "/callback",
      summary: "The provider's answer: the browser goes on to `redirect_to`.",
      access: "public",
      query: Object.keys(callbackFields).map((name) => ({
        name,
        description: `The provider's \`${name}\`.`,
      })),
      responses: callbackAnswers,
    },
    () => [(c) => callback(c, c.req.query())],
  ),
  endpoint(
    {
      method: "post",
      path: "/callback",
      summary: "The provider's answer posted as a form (`response_mode=form_post`).",
      access: "public",
      body: { schema: { type: "object", properties: callbackFields }, form: true },
      responses: callbackAnswers,
    },
    () => [
      async (c) => {
        // `response_mode=form_post` providers (Apple) post the answer as a form.
        // A body that is not a readable form carries nothing usable: the state check then refuses it.
        const form = await c.req.parseBody().catch(() => ({}));
        const fields = Object.fromEntries(
          Object.entries({ ...c.req.query(), ...form }).filter(([, v]) => typeof v === "string"),
        ) as Record<string, string>;
        return callback(c, fields);
      },
    ],
  ),
  endpoint(
    {
      method: "get",
      path: "/user/identities/authorize",
      summary: "Links an external provider's account to the signed-in user (`MANUAL_LINKING_ENABLED`).",
      access: "user",
      query: [
        ...authorizeQuery,
        { name: "skip_http_redirect", description: "`true`: answer `{url}` instead of redirecting." },
      ],
      responses: {
        200: { description: "With `skip_http_redirect=true`: where to send the browser.", body: ref("Url") },
        302: redirect("To the provider."),
      },
      errors: [404],
    },
    (ctx) => [
      signedIn(ctx),
      async (c) => {
        if (!ctx.auth.settings.manualLinkingEnabled) throw failures.manualLinkingDisabled();
        const { skip_http_redirect: skip, ...rest } = authorizeInput(c).query;
        const { user, sessionId } = c.get("auth");
        const input = {
          ...authorizeInput(c),
          query: rest,
          linkingTargetId: user.id,
          linkingSessionId: sessionId,
        };
        const { url } = unwrap(await startExternalSignIn(c.get("deps"), input));
        return skip === "true" ? c.json({ url }) : c.redirect(url, 302);
      },
    ],
  ),
  endpoint(
    {
      method: "delete",
      path: "/user/identities/{identity_id}",
      summary: "Unlinks one of the signed-in user's identities (not the last one).",
      access: "user",
      pathParameters: [{ name: "identity_id", description: "The identity's `identity_id`." }],
      responses: { 200: { description: "Unlinked.", body: ref("Empty") } },
      errors: [404, 422],
    },
    (ctx) => [
      signedIn(ctx),
      async (c) => {
        const { user, sessionId } = c.get("auth");
        const input = { userId: user.id, sessionId, identityId: c.req.param("identity_id") ?? "" };
        return c.json(unwrap(await unlinkIdentity(c.get("deps"), input)));
      },
    ],
  ),
];
