import { type AuthDeps, failures } from "@authsvc/core";
import {
  type CallbackFailure,
  completeExternalSignIn,
  startExternalSignIn,
  unlinkIdentity,
} from "@authsvc/core/external";
import { parsePkceChallenge } from "@authsvc/core/pkce";
import { type Context, Hono } from "hono";
import type { AppEnv } from "../http/app-env.js";
import { unwrap } from "../http/body.js";
import { statusOf } from "../http/errors.js";
import { setFlowCookie, takeFlowCookie } from "../http/flow-cookie.js";
import { logLogin } from "../http/login-log.js";
import { requireUser } from "../http/middleware/auth.js";
import { errorUrl, oauthErrorWord, sessionFragmentUrl, withQuery } from "../http/redirects.js";

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

/** `GET /authorize`, `GET|POST /callback`, `GET /user/identities/authorize`, `DELETE /user/identities/<id>`. */
export const externalRoutes = (deps: AuthDeps) => {
  const auth = requireUser(deps);
  return new Hono<AppEnv>()
    .get("/authorize", async (c) => {
      const started = unwrap(await startExternalSignIn(c.get("deps"), authorizeInput(c)));
      setFlowCookie(c, started);
      return c.redirect(started.url, 302);
    })
    .get("/callback", (c) => callback(c, c.req.query()))
    .post("/callback", async (c) => {
      // `response_mode=form_post` providers (Apple) post the answer as a form.
      // A body that is not a readable form carries nothing usable: the state check then refuses it.
      const form = await c.req.parseBody().catch(() => ({}));
      const fields = Object.fromEntries(
        Object.entries({ ...c.req.query(), ...form }).filter(([, v]) => typeof v === "string"),
      ) as Record<string, string>;
      return callback(c, fields);
    })
    .get("/user/identities/authorize", auth, async (c) => {
      if (!deps.settings.manualLinkingEnabled) throw failures.manualLinkingDisabled();
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
    })
    .delete("/user/identities/:identityId", auth, async (c) => {
      const { user, sessionId } = c.get("auth");
      const input = { userId: user.id, sessionId, identityId: c.req.param("identityId") };
      return c.json(unwrap(await unlinkIdentity(c.get("deps"), input)));
    });
};
