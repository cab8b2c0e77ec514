import { generateKeyPairSync, randomUUID } from "node:crypto";
import { type IdpKey, idpMetadataXml, newIdpKey, signedResponse } from "@authsvc/adapters/testing";
import fc from "fast-check";
import { type FuzzKeys, fuzzText, type RequestSpec } from "./requests.js";

/**
 * Requests shaped as the SAML assertion consumer and the OAuth server's endpoints expect them — forms,
 * query strings, a registered identity provider's signed responses, a registered client's
 * credentials — with hostile values in every field, so that the fuzz gets past their first checks
 * (a random JSON body never reaches the ACS's XML or the token endpoint's grants).
 */
export interface TargetedContext {
  readonly keys: FuzzKeys;
  /** A registered SAML identity provider: responses it signs reach the verification and the account. */
  readonly saml: {
    readonly entityId: string;
    readonly key: IdpKey;
    readonly spEntityId: string;
    readonly acsUrl: string;
  };
  /** A registered confidential OAuth client. */
  readonly oauthClient: { readonly id: string; readonly secret: string; readonly redirectUri: string };
}

const FORM = "application/x-www-form-urlencoded";
const hostile = fc.oneof(
  { weight: 3, arbitrary: fuzzText },
  fc.constantFrom("\u0000", "a\u0000b", "&#0;", "&#x0;", "]]>", "<x/>", "%00", "\ud800", "\udc00x"),
);
const rawFragment = fc.constantFrom("%00", "%ED%A0%80", "%", "%zz", "%C0%80", "+", "&", "=");

/** One form field: mostly percent-encoded text, sometimes raw bytes a browser would never send. */
function encoded(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return "%ED%A0%80";
  }
}
const formValue = fc.oneof({ weight: 5, arbitrary: hostile.map(encoded) }, rawFragment);

/** One time in eight a value, else undefined. */
const rarely = <T>(value: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 7, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: value });

/** A form body from pairs whose values are already encoded (repeated keys kept). */
const formOf = (pairs: readonly (readonly [string, string])[]) =>
  pairs.map(([key, value]) => `${encoded(key)}=${value}`).join("&");

/** Fields of a form: the named ones (each present or not, good or hostile), plus stray ones. */
function formFields(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const named = Object.entries(fields).map(([key, good]) =>
    fc.option(
      fc.oneof({ weight: 2, arbitrary: good.map(encoded) }, formValue).map((v) => [key, v] as const),
      { freq: 4 },
    ),
  );
  const stray = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...Object.keys(fields)), fuzzText), formValue), {
    maxLength: 2,
  });
  return fc
    .tuple(fc.tuple(...named), stray)
    .map(([present, more]) => formOf([...present.filter((p) => p !== null), ...more]));
}

/** A query string the same way. */
const queryOf = formFields;

const spec = (
  method: string,
  path: string,
  parts: { query?: string; headers?: Record<string, string>; body?: string },
): RequestSpec => ({
  method,
  path,
  query: parts.query ?? "",
  headers: parts.headers ?? {},
  body: method === "GET" ? undefined : parts.body,
});

// ----- SAML: POST /sso/saml/acs

const base64Of = (xml: string) => Buffer.from(xml, "utf8").toString("base64");
const elementSoup = fc
  .array(fc.oneof(hostile, fc.constantFrom("<a>", "</a>", "<saml:Assertion>", "<!--", "-->", "<![CDATA[")), {
    maxLength: 6,
  })
  .map((parts) => parts.join(""));

/** An unsigned Response document with a hostile Issuer and body. */
function unsignedResponse(entityId: string): fc.Arbitrary<string> {
  return fc
    .record({
      issuer: fc.oneof(
        fc.constant(entityId),
        hostile,
        hostile.map((h) => `${entityId}${h}`),
      ),
      inner: elementSoup,
      doctype: fc.constantFrom("", '<!DOCTYPE r [<!ENTITY e "x">]>', '<?xml version="1.0"?>'),
    })
    .map(
      ({ issuer, inner, doctype }) =>
        `${doctype}<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r" Version="2.0"><saml:Issuer>${issuer}</saml:Issuer>${inner}</samlp:Response>`,
    );
}

/** A response the registered identity provider signed, about a hostile person. */
function signedHostile(saml: TargetedContext["saml"]): fc.Arbitrary<string> {
  const good = fc.uuid().map((u) => `${u}@example.com`);
  return fc
    .record({
      nameId: fc.oneof({ weight: 3, arbitrary: good }, hostile),
      nameIdFormat: rarely(
        fc.oneof(
          fc.constantFrom(
            "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
            "urn:oasis:names:tc:SAML:2.0:nameid-format:transient",
          ),
          hostile,
        ),
      ),
      attributes: fc.dictionary(
        fc.oneof(
          fc.constantFrom("email", "mail", "name", "urn:oasis:names:tc:SAML:attribute:subject-id"),
          hostile,
        ),
        fc.array(fc.oneof(good, hostile), { maxLength: 2 }),
        { maxKeys: 3 },
      ),
      assertionId: rarely(
        fc.oneof(
          fc.uuid().map((u) => `_${u}`),
          hostile,
        ),
      ),
      validForMs: rarely(fc.integer({ min: -600_000, max: 3 * 86_400_000 })),
      sessionEnd: rarely(fc.integer({ min: -3_600_000, max: 3_600_000 })),
      sign: fc.constantFrom(
        "assertion",
        "assertion",
        "assertion",
        "response",
        "both",
        "none",
      ) as fc.Arbitrary<"assertion" | "response" | "both" | "none">,
      destination: rarely(hostile),
    })
    .map((r) => {
      const responseSpec = {
        issuer: saml.entityId,
        audience: saml.spEntityId,
        acsUrl: saml.acsUrl,
        nameId: r.nameId,
        attributes: r.attributes,
        sign: r.sign,
        ...(r.nameIdFormat !== undefined ? { nameIdFormat: r.nameIdFormat } : {}),
        ...(r.assertionId !== undefined ? { assertionId: r.assertionId } : {}),
        ...(r.validForMs !== undefined ? { validForMs: r.validForMs } : {}),
        ...(r.sessionEnd !== undefined ? { sessionNotOnOrAfter: new Date(Date.now() + r.sessionEnd) } : {}),
        ...(r.destination !== undefined ? { destination: r.destination } : {}),
      };
      try {
        return signedResponse(responseSpec, saml.key);
      } catch {
        // Text the signer cannot canonicalize: sent unsigned instead.
        return signedResponse({ ...responseSpec, sign: "none" }, saml.key);
      }
    });
}

const samlResponse = (saml: TargetedContext["saml"]): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: signedHostile(saml) },
    { weight: 3, arbitrary: unsignedResponse(saml.entityId).map(base64Of) },
    { weight: 1, arbitrary: elementSoup.map(base64Of) },
    // Base64 that is not: other alphabets, bad padding, whitespace, nothing at all.
    { weight: 1, arbitrary: fc.constantFrom("", "====", "a", "bm90IHhtbA", "-_-_", " \n\t", "PHg+AA==") },
    { weight: 1, arbitrary: hostile },
  );

function acsRequest(ctx: TargetedContext): fc.Arbitrary<RequestSpec> {
  return fc
    .record({
      response: samlResponse(ctx.saml),
      relay: fc.oneof(
        { weight: 4, arbitrary: fc.constant("") },
        fc.uuid(),
        fc.constantFrom("http://localhost:3000/after", "https://evil.example/", "/path"),
        hostile,
      ),
      artifact: rarely(hostile),
      contentType: fc.constantFrom(FORM, FORM, FORM, "multipart/form-data", "text/plain", "application/json"),
    })
    .map(({ response, relay, artifact, contentType }) =>
      spec("POST", "/sso/saml/acs", {
        headers: { "content-type": contentType },
        body: formOf([
          ["SAMLResponse", encoded(response)],
          ["RelayState", encoded(relay)],
          ...(artifact !== undefined ? [["SAMLart", encoded(artifact)] as const] : []),
        ]),
      }),
    );
}

// ----- OAuth server

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

/** What a fuzzed server needs for the ACS to be reached: SAML on, with a key of its own. */
export function samlFuzzEnv(): Record<string, string> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, publicExponent: 65537 });
  return {
    AUTHSVC_SAML_ENABLED: "true",
    AUTHSVC_SAML_PRIVATE_KEY: privateKey.export({ format: "der", type: "pkcs1" }).toString("base64"),
  };
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
