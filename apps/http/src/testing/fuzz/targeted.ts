import { randomUUID } from "node:crypto";
import { idpMetadataXml, newIdpKey } from "@authsvc/adapters/testing";
import fc from "fast-check";
import type { FuzzKeys, RequestSpec } from "./requests.js";
import { acsRequest } from "./targeted-saml.js";
import {
  encoded,
  FORM,
  formFields,
  formOf,
  hostile,
  queryOf,
  rawFragment,
  spec,
  type TargetedContext,
} from "./targeted-values.js";

export { samlFuzzEnv } from "./targeted-saml.js";
export type { TargetedContext } from "./targeted-values.js";

// The OAuth server's endpoints: authorize, token, revoke, introspect, register, userinfo and consent.

const clientIdOf = (ctx: TargetedContext) => fc.oneof(fc.constant(ctx.oauthClient.id), fc.uuid(), hostile);
const verifier = fc.constantFrom("v".repeat(43), "x".repeat(128), "short");

function authorizeRequest(ctx: TargetedContext): fc.Arbitrary<RequestSpec> {
  return queryOf({
    response_type: fc.constantFrom("code", "token", "id_token"),
    client_id: clientIdOf(ctx),
    redirect_uri: fc.constantFrom(ctx.oauthClient.redirectUri, "https://evil.example/cb"),
    scope: fc.constantFrom("openid", "openid email profile", "offline_access", ""),
    state: fc.string({ maxLength: 20 }),
    code_challenge: fc.constantFrom("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "c".repeat(43)),
    code_challenge_method: fc.constantFrom("S256", "plain"),
    nonce: fc.string({ maxLength: 20 }),
    resource: fc.constantFrom("https://api.example.com", "http://localhost:9999"),
    prompt: fc.constantFrom("consent", "none", "login"),
  }).map((query) => spec("GET", "/oauth/authorize", { query }));
}

/** Client credentials: in the form, as HTTP Basic (well-formed or not), or none. */
function clientAuth(ctx: TargetedContext) {
  const basicOf = (id: string, secret: string) =>
    `Basic ${Buffer.from(`${encoded(id)}:${encoded(secret)}`).toString("base64")}`;
  return fc.oneof(
    fc.constant({ form: {}, header: {} }),
    fc.constant({
      form: { client_id: ctx.oauthClient.id, client_secret: ctx.oauthClient.secret },
      header: {},
    }),
    fc
      .tuple(
        fc.oneof(fc.constant(ctx.oauthClient.id), hostile),
        fc.oneof(fc.constant(ctx.oauthClient.secret), hostile),
      )
      .map(([id, secret]) => ({ form: {}, header: { authorization: basicOf(id, secret) } })),
    fc
      .constantFrom("Basic", "Basic !!!", "Basic AA==", "Basic OmE=", "Basic JUZGOmE=", "basic JTAwOiUwMA==")
      .map((authorization) => ({ form: {}, header: { authorization } })),
  );
}

/** A form endpoint of the OAuth server with client authentication. */
function clientForm(
  ctx: TargetedContext,
  path: string,
  fields: Record<string, fc.Arbitrary<string>>,
): fc.Arbitrary<RequestSpec> {
  return fc
    .record({
      auth: clientAuth(ctx),
      form: formFields(fields),
      contentType: fc.constantFrom(FORM, FORM, FORM, "application/json", "text/plain"),
    })
    .map(({ auth, form, contentType }) => {
      const credentials = formOf(Object.entries(auth.form).map(([k, v]) => [k, encoded(v)] as const));
      const body = [form, credentials].filter((part) => part !== "").join("&");
      return spec("POST", path, { headers: { "content-type": contentType, ...auth.header }, body });
    });
}

const tokenRequest = (ctx: TargetedContext) =>
  clientForm(ctx, "/oauth/token", {
    grant_type: fc.constantFrom("authorization_code", "refresh_token", "client_credentials", "password"),
    code: fc.oneof(fc.uuid(), fc.string({ maxLength: 40 })),
    code_verifier: verifier,
    redirect_uri: fc.constant(ctx.oauthClient.redirectUri),
    refresh_token: fc.string({ maxLength: 20 }),
    resource: fc.constantFrom("https://api.example.com"),
    scope: fc.constantFrom("openid"),
  });

const revokeRequest = (ctx: TargetedContext, path: "/oauth/revoke" | "/oauth/introspect") =>
  clientForm(ctx, path, {
    token: fc.oneof(fc.constant(ctx.keys.anon), fc.string({ maxLength: 40 })),
    token_type_hint: fc.constantFrom("access_token", "refresh_token"),
  });

const json = (value: unknown) => JSON.stringify(value);
const registerRequest = (): fc.Arbitrary<RequestSpec> => {
  const uri = fc.oneof(
    fc.constantFrom("https://app.example.com/cb", "http://localhost:3000/cb", "com.example.app:/cb"),
    hostile,
  );
  return fc
    .record(
      {
        redirect_uris: fc.oneof(fc.array(uri, { maxLength: 3 }), hostile),
        client_name: hostile,
        client_uri: uri,
        logo_uri: uri,
        grant_types: fc.array(fc.oneof(fc.constantFrom("authorization_code", "refresh_token"), hostile), {
          maxLength: 3,
        }),
        token_endpoint_auth_method: fc.oneof(
          fc.constantFrom("none", "client_secret_basic", "client_secret_post"),
          hostile,
        ),
        client_type: fc.oneof(fc.constantFrom("public", "confidential"), hostile),
        scope: hostile,
      },
      { requiredKeys: [] },
    )
    .map((body) =>
      spec("POST", "/oauth/clients/register", {
        headers: { "content-type": "application/json" },
        body: json(body),
      }),
    );
};

const bearer = (ctx: TargetedContext) =>
  fc.oneof(
    fc.constantFrom(ctx.keys.anon, ctx.keys.user ?? ctx.keys.anon, ctx.keys.serviceRole),
    fc.string({ maxLength: 30 }),
  );

function userinfoRequest(ctx: TargetedContext): fc.Arbitrary<RequestSpec> {
  return bearer(ctx).map((token) =>
    spec("GET", "/oauth/userinfo", { headers: { authorization: `Bearer ${token}`, apikey: ctx.keys.anon } }),
  );
}

/** The consent API for a signed-in user (`/oauth/authorizations/…`), and the consent page's forms. */
function consentRequest(ctx: TargetedContext): fc.Arbitrary<RequestSpec> {
  const id = fc.oneof(fc.uuid(), hostile.map(encoded), rawFragment);
  const user = ctx.keys.user ?? ctx.keys.anon;
  const headers = { authorization: `Bearer ${user}`, apikey: ctx.keys.anon };
  // A header value must be printable ASCII for fetch to send it.
  const csrf = fc.oneof(fc.constant("c".repeat(32)), fc.stringMatching(/^[\x21-\x3a\x3c-\x7e]{0,40}$/));
  return fc.oneof(
    id.map((authorization) => spec("GET", `/oauth/authorizations/${authorization}`, { headers })),
    fc.tuple(id, fc.oneof(fc.constantFrom("approve", "deny"), hostile)).map(([authorization, action]) =>
      spec("POST", `/oauth/authorizations/${authorization}/consent`, {
        headers: { ...headers, "content-type": "application/json" },
        body: json({ action }),
      }),
    ),
    queryOf({ authorization_id: fc.uuid() }).map((query) => spec("GET", "/oauth/consent", { query })),
    fc
      .tuple(
        formFields({
          authorization_id: fc.uuid(),
          email: fc.constant("a@example.com"),
          password: fc.constant("pw"),
        }),
        csrf,
      )
      .map(([form, token]) =>
        spec("POST", "/oauth/consent/sign-in", {
          headers: { "content-type": FORM, cookie: `authsvc-oauth-consent=${token}` },
          body: `${form}&csrf=${encoded(token)}`,
        }),
      ),
    fc
      .tuple(
        formFields({
          authorization_id: fc.uuid(),
          proof: fc.constant(`${randomUUID()}.1.mac`),
          action: fc.constantFrom("approve", "deny"),
        }),
        csrf,
      )
      .map(([form, token]) =>
        spec("POST", "/oauth/consent/decision", {
          headers: { "content-type": FORM, cookie: `authsvc-oauth-consent=${token}` },
          body: `${form}&csrf=${encoded(token)}`,
        }),
      ),
  );
}

/** Requests for the ACS and the OAuth server's endpoints, shaped as each reads them. */
export function targetedRequestArbitrary(ctx: TargetedContext): fc.Arbitrary<RequestSpec> {
  return fc.oneof(
    { weight: 4, arbitrary: acsRequest(ctx) },
    { weight: 2, arbitrary: authorizeRequest(ctx) },
    { weight: 3, arbitrary: tokenRequest(ctx) },
    { weight: 1, arbitrary: revokeRequest(ctx, "/oauth/revoke") },
    { weight: 1, arbitrary: revokeRequest(ctx, "/oauth/introspect") },
    { weight: 2, arbitrary: registerRequest() },
    { weight: 1, arbitrary: userinfoRequest(ctx) },
    { weight: 2, arbitrary: consentRequest(ctx) },
  );
}

/**
 * Registers, through the admin API at `base` (with `fetchImpl`: the in-process app's or a socket's),
 * the identity provider and the OAuth client the targeted requests use. The server must have
 * `API_EXTERNAL_URL` http://localhost:9999, SAML (`samlFuzzEnv`) and the OAuth server on.
 */
export async function registerFuzzTargets(
  fetchImpl: (request: Request) => Response | Promise<Response>,
  base: string,
  keys: FuzzKeys,
): Promise<TargetedContext> {
  const admin = async (path: string, body: unknown) => {
    const response = await fetchImpl(
      new Request(`${base}${path}`, {
        method: "POST",
        headers: {
          apikey: keys.serviceRole,
          authorization: `Bearer ${keys.serviceRole}`,
          "content-type": "application/json",
        },
        body: JSON.stringify(body),
      }),
    );
    const answer = (await response.json()) as Record<string, unknown>;
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  const entityId = "https://idp.fuzz.example/metadata";
  const key = await newIdpKey();
  await admin("/admin/sso/providers", {
    type: "saml",
    metadata_xml: idpMetadataXml(entityId, "https://idp.fuzz.example/sso", key.certificate),
    domains: ["fuzz.example"],
  });
  const redirectUri = "https://app.fuzz.example/callback";
  const client = await admin("/admin/oauth/clients", {
    redirect_uris: [redirectUri],
    client_type: "confidential",
    client_name: "fuzz",
  });
  return {
    keys,
    saml: {
      entityId,
      key,
      spEntityId: "http://localhost:9999/sso/saml/metadata",
      acsUrl: "http://localhost:9999/sso/saml/acs",
    },
    oauthClient: { id: String(client.client_id), secret: String(client.client_secret), redirectUri },
  };
}
