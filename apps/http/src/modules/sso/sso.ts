import { parsePkceChallenge } from "@authsvc/core/pkce";
import { acceptSamlResponse, samlSpMetadata, startSso } from "@authsvc/core/sso";
import type { Context } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../../http/app-env.js";
import { flag, parseBody, storedText, text, unwrap } from "../../http/body.js";
import { statusOf } from "../../http/errors.js";
import { logLogin } from "../../http/login-log.js";
import { readJsonObject } from "../../http/middleware/json-body.js";
import { redirect, ref } from "../../http/operation.js";
import { errorUrl, oauthErrorWord, sessionFragmentUrl, withQuery } from "../../http/redirects.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";
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

const acsFormFields = {
  SAMLResponse: { type: "string", description: "The identity provider's Response, base64." },
  RelayState: {
    type: "string",
    description: "The relay state `POST /sso` made (SP-initiated), or empty or a URL (IdP-initiated).",
  },
  SAMLart: { type: "string", description: "An artifact (HTTP-Artifact binding): refused." },
};

const gate = ({ auth }: ModuleContext) => requireSaml(auth);

/** SAML single sign-on: `POST /sso`, `GET /sso/saml/metadata`, `POST /sso/saml/acs`. */
export const ssoEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "post",
      path: "/sso",
      summary: "Starts a SAML sign-in with the identity provider named by `provider_id` or `domain`.",
      access: "public",
      limited: true,
      body: {
        schema: SsoBody,
        fields: {
          provider_id: { description: "The provider's id; or `domain`, not both." },
          domain: { description: "An email domain a provider owns; or `provider_id`, not both." },
          redirect_to: {
            description: "Where the browser lands afterwards; must match `SITE_URL` or `URI_ALLOW_LIST`.",
          },
          skip_http_redirect: {
            description: "`true`: answer `{url}` instead of redirecting (auth-js always).",
          },
          code_challenge_method: { enum: ["s256", "plain", "S256"] },
        },
      },
      responses: {
        200: { description: "With `skip_http_redirect`: the identity provider's URL.", body: ref("Url") },
        303: redirect("To the identity provider, with the signed AuthnRequest."),
      },
      errors: [400, 404],
    },
    (ctx) => [
      gate(ctx),
      ssoLimit(ctx.rateLimit, "sso", ctx.auth.settings.sso.rateLimitSsoPer5Min),
      async (c) => {
        const body = parseBody(SsoBody, await readJsonObject(c));
        const pkce = unwrap(parsePkceChallenge(body.code_challenge, body.code_challenge_method));
        const input = {
          providerId: body.provider_id,
          domain: body.domain,
          redirectTo: body.redirect_to,
          pkce,
        };
        const { url } = unwrap(await startSso(c.get("deps"), input));
        return body.skip_http_redirect === true ? c.json({ url }) : c.redirect(url, 303);
      },
    ],
    { captcha: true },
  ),
  endpoint(
    {
      method: "get",
      path: "/sso/saml/metadata",
      summary: "The service provider's SAML metadata, for identity providers to register.",
      access: "public",
      query: [{ name: "download", description: "`true`: as an attachment, valid for 5 years." }],
      responses: {
        200: {
          description: "The metadata.",
          media: "application/xml",
          body: { type: "string" },
          headers: {
            "cache-control": {
              description: "`public, max-age=600` (60 during a key rotation).",
              required: true,
            },
          },
        },
      },
      errors: [404],
    },
    (ctx) => [
      gate(ctx),
      async (c) => {
        const download = c.req.query("download") === "true";
        const { xml, rotating } = unwrap(await samlSpMetadata(c.get("deps"), { download }));
        c.header("content-type", "application/xml");
        c.header("cache-control", `public, max-age=${rotating ? 60 : 600}`);
        if (download) c.header("content-disposition", 'attachment; filename="metadata.xml"');
        return c.body(xml, 200);
      },
    ],
  ),
  endpoint(
    {
      method: "post",
      path: "/sso/saml/acs",
      summary: "The assertion consumer service: the identity provider's answer, posted by the browser.",
      access: "public",
      limited: true,
      body: { schema: { type: "object", properties: acsFormFields }, form: true },
      responses: {
        302: redirect("To the redirect target with the session in the fragment, or a `?code=` (PKCE)."),
        303: redirect(
          "To `SITE_URL` with `error`, `error_code` and `error_description`: the answer was refused.",
        ),
      },
      errors: [404],
    },
    (ctx) => [
      gate(ctx),
      ssoLimit(ctx.rateLimit, "saml_assertion", ctx.auth.settings.sso.rateLimitAssertionPer5Min),
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
          return c.redirect(errorUrl(ctx.auth.settings.siteUrl, values, false), 303);
        }
        const outcome = result.value;
        if (outcome.kind === "code")
          return c.redirect(withQuery(outcome.redirectTo, { code: outcome.code }), 302);
        logLogin(c, { method: "sso/saml", userId: outcome.tokens.user.id });
        return c.redirect(sessionFragmentUrl(outcome.redirectTo, outcome.tokens), 302);
      },
    ],
  ),
];
