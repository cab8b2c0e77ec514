import { type Operation, redirect, ref } from "../../http/operation.js";
import { SsoBody } from "./sso.js";

const acsFields = {
  SAMLResponse: { type: "string", description: "The identity provider's Response, base64." },
  RelayState: {
    type: "string",
    description: "The relay state `POST /sso` made (SP-initiated), or empty or a URL (IdP-initiated).",
  },
  SAMLart: { type: "string", description: "An artifact (HTTP-Artifact binding): refused." },
};

/** SAML single sign-on (routes/sso/sso.ts). */
export const ssoOperations: readonly Operation[] = [
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
  {
    method: "post",
    path: "/sso/saml/acs",
    summary: "The assertion consumer service: the identity provider's answer, posted by the browser.",
    access: "public",
    limited: true,
    body: { schema: { type: "object", properties: acsFields }, form: true },
    responses: {
      302: redirect("To the redirect target with the session in the fragment, or a `?code=` (PKCE)."),
      303: redirect(
        "To `SITE_URL` with `error`, `error_code` and `error_description`: the answer was refused.",
      ),
    },
    errors: [404],
  },
];
