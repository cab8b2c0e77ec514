import type { AuthDeps } from "@authsvc/core";
import { parsePkceChallenge } from "@authsvc/core/pkce";
import { acceptSamlResponse, samlSpMetadata, startSso } from "@authsvc/core/sso";
import { type Context, Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../../http/app-env.js";
import { flag, parseBody, storedText, text, unwrap } from "../../http/body.js";
import { statusOf } from "../../http/errors.js";
import { logLogin } from "../../http/login-log.js";
import { readJsonObject } from "../../http/middleware/json-body.js";
import type { RateLimits } from "../../http/middleware/rate-limit.js";
import { errorUrl, oauthErrorWord, sessionFragmentUrl, withQuery } from "../../http/redirects.js";
import { requireSaml, ssoLimit } from "./sso-http.js";

export const SsoBody = v.object({
  provider_id: storedText,
  domain: storedText,
  redirect_to: storedText,
  skip_http_redirect: flag,
  code_challenge: storedText,
  code_challenge_method: storedText,
});

/** The ACS form (HTTP-POST binding). */
export const AcsForm = v.object({ SAMLResponse: text, RelayState: text, SAMLart: text });

/** The form fields of an ACS post; a body that is no readable form carries none. */
async function acsFields(c: Context<AppEnv>) {
  const form = await c.req.parseBody().catch(() => ({}));
  const field = (name: string) => {
    const value = (form as Record<string, unknown>)[name];
    return typeof value === "string" ? value : undefined;
  };
  return { samlResponse: field("SAMLResponse"), relayState: field("RelayState"), samlArt: field("SAMLart") };
}

/** `POST /sso`, `GET /sso/saml/metadata`, `POST /sso/saml/acs`. */
export const ssoRoutes = (deps: AuthDeps, limits: RateLimits | undefined) => {
  const gate = requireSaml(deps);
  const { saml } = deps.settings;
  return new Hono<AppEnv>()
    .post("/sso", gate, ssoLimit(limits, "sso", saml.rateLimitSsoPer5Min), async (c) => {
      const body = parseBody(SsoBody, await readJsonObject(c));
      const pkce = unwrap(parsePkceChallenge(body.code_challenge, body.code_challenge_method));
      const input = { providerId: body.provider_id, domain: body.domain, redirectTo: body.redirect_to, pkce };
      const { url } = unwrap(await startSso(c.get("deps"), input));
      return body.skip_http_redirect === true ? c.json({ url }) : c.redirect(url, 303);
    })
    .get("/sso/saml/metadata", gate, async (c) => {
      const download = c.req.query("download") === "true";
      const { xml, rotating } = unwrap(await samlSpMetadata(c.get("deps"), { download }));
      c.header("content-type", "application/xml");
      c.header("cache-control", `public, max-age=${rotating ? 60 : 600}`);
      if (download) c.header("content-disposition", 'attachment; filename="metadata.xml"');
      return c.body(xml, 200);
    })
    .post(
      "/sso/saml/acs",
      gate,
      ssoLimit(limits, "saml_assertion", saml.rateLimitAssertionPer5Min),
      async (c) => {
        const result = await acceptSamlResponse(c.get("deps"), await acsFields(c));
        if (!result.ok) {
          const error = result.error;
          if (statusOf(c, error) >= 500) c.get("log").error({ err: error }, "SAML sign-in failed");
          const values = {
            error: oauthErrorWord(c, error),
            error_code: error.code,
            error_description: error.message,
          };
          // As the reference: every refusal lands on SITE_URL, in the query only.
          return c.redirect(errorUrl(deps.settings.siteUrl, values, false), 303);
        }
        const outcome = result.value;
        if (outcome.kind === "code")
          return c.redirect(withQuery(outcome.redirectTo, { code: outcome.code }), 302);
        logLogin(c, { method: "sso/saml", userId: outcome.tokens.user.id });
        return c.redirect(sessionFragmentUrl(outcome.redirectTo, outcome.tokens), 302);
      },
    );
};
