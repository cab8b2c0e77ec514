import { describe, expect, it } from "vitest";
import { bearer, NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

type Json = Record<string, unknown>;
const ENTITY = "https://idp.example/metadata";
const SITE = "http://localhost:3000";
const VERIFIER = "v".repeat(43);

/**
 * An app over fakes with one provider for example.com. The fake SAML port takes a JSON "response"
 * `{issuer, id, nameId, inResponseTo, until}` (core/src/testing/sso/fake-sso.ts).
 */
async function setup(saml: { enabled: boolean } = { enabled: true }) {
  const t = testApp();
  const admin = await bearer(t.auth, { role: "service_role" });
  const made = await send(
    t.app,
    "POST",
    "/admin/sso/providers",
    { type: "saml", metadata_xml: `<EntityDescriptor entityID="${ENTITY}"/>`, domains: ["example.com"] },
    admin,
  );
  const provider = (await made.json()) as { id: string };
  // Set after the provider is made: the routes read the setting at each request.
  Object.assign(t.auth.settings, { sso: { ...t.auth.settings.sso, ...saml } });
  const until = new Date(t.auth.clock.now().getTime() + 300_000).toISOString();
  const response = (fields: { id?: string; inResponseTo?: string } = {}) =>
    JSON.stringify({
      issuer: ENTITY,
      id: fields.id ?? `a-${Math.random()}`,
      nameId: "ada@example.com",
      until,
      ...fields,
    });
  /** Posts the ACS form: each field given, URL-encoded. */
  const acs = (fields: Record<string, string>) =>
    t.app.request("/sso/saml/acs", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  return { ...t, admin, provider, response, acs };
}

/** The query (or fragment) parameters of a redirect's `Location`. */
function located(res: Response, part: "search" | "hash" = "search") {
  const location = new URL(res.headers.get("location") ?? "about:blank");
  return { location, params: Object.fromEntries(new URLSearchParams(location[part].slice(1))) };
}

describe("POST /sso", () => {
  it("redirects (303) to the domain's or the id's identity provider, or answers the URL as JSON", async () => {
    const { app, provider } = await setup();
    const byDomain = await send(app, "POST", "/sso", { domain: "Example.com" });
    expect(byDomain.status).toBe(303);
    const { location, params } = located(byDomain);
    expect(location.origin).toBe("https://idp.example");
    expect(params).toMatchObject({ entity: ENTITY, RelayState: expect.any(String) });
    const asJson = await send(app, "POST", "/sso", { provider_id: provider.id, skip_http_redirect: true });
    expect(asJson.status).toBe(200);
    expect(await asJson.json()).toEqual({ url: expect.stringMatching(/^https:\/\/idp\.example\/sso\?/) });
  });

  it("refuses a missing, doubled or unknown target and incomplete PKCE with JSON errors", async () => {
    const { app, provider, admin } = await setup();
    const refusals: [Json, number, string, string?][] = [
      [{}, 400, "validation_failed", "A provider_id or domain needs to be provided"],
      [{ domain: "example.com", provider_id: provider.id }, 400, "validation_failed", "Only one of"],
      [{ domain: "other.example" }, 404, "sso_provider_not_found"],
      [{ provider_id: "33333333-3333-4333-8333-333333333333" }, 404, "sso_provider_not_found"],
      [{ domain: "example.com", code_challenge: VERIFIER }, 400, "validation_failed"],
      [{ domain: 7 }, 400, "validation_failed", "domain"],
      [{ domain: "example.com", skip_http_redirect: "yes" }, 400, "validation_failed"],
    ];
    for (const [body, status, code, message] of refusals) {
      const res = await send(app, "POST", "/sso", body);
      expect([body, res.status]).toEqual([body, status]);
      const json = (await res.json()) as Json;
      expect(json.error_code).toBe(code);
      if (message) expect(json.msg).toContain(message);
    }
    await send(app, "PUT", `/admin/sso/providers/${provider.id}`, { disabled: true }, admin);
    const disabled = await send(app, "POST", "/sso", { domain: "example.com" });
    expect(disabled.status).toBe(404);
    expect(await disabled.json()).toMatchObject({ error_code: "sso_provider_disabled" });
  });
});

describe("GET /sso/saml/metadata", () => {
  it("answers the service provider's XML, cached, and as an attachment when asked", async () => {
    const { app } = await setup();
    const res = await app.request("/sso/saml/metadata");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/xml");
    expect(res.headers.get("cache-control")).toBe("public, max-age=600");
    expect(res.headers.get("content-disposition")).toBeNull();
    expect(await res.text()).toContain("<EntityDescriptor");
    const download = await app.request("/sso/saml/metadata?download=true");
    expect(download.headers.get("content-disposition")).toBe('attachment; filename="metadata.xml"');
  });
});

describe("POST /sso/saml/acs", () => {
  it("signs an IdP-initiated answer in: 302 to SITE_URL with the session in the fragment", async () => {
    const { app, acs, response, provider, log } = await setup();
    const res = await acs({ SAMLResponse: response() });
    expect(res.status).toBe(302);
    const { location, params } = located(res, "hash");
    expect(`${location.origin}${location.pathname}`).toBe(`${SITE}/`);
    expect(location.search).toBe("");
    expect(params).toMatchObject({ token_type: "bearer", refresh_token: expect.any(String) });
    const user = await send(app, "GET", "/user", undefined, {
      authorization: `Bearer ${params.access_token}`,
    });
    expect(await user.json()).toMatchObject({
      email: "ada@example.com",
      app_metadata: { provider: `sso:${provider.id}` },
    });
    const login = log.lines().find((line) => line.action === "login");
    expect(login).toMatchObject({ login_method: "sso/saml", user_id: expect.any(String) });
  });

  it("answers an SP-initiated PKCE flow with a code (302) that the token endpoint exchanges", async () => {
    const { app, acs, response } = await setup();
    const started = await send(app, "POST", "/sso", {
      domain: "example.com",
      skip_http_redirect: true,
      redirect_to: SITE,
      code_challenge: VERIFIER,
      code_challenge_method: "plain",
    });
    const relayState = new URL(((await started.json()) as { url: string }).url).searchParams.get(
      "RelayState",
    );
    const res = await acs({
      SAMLResponse: response({ inResponseTo: `_request-${relayState}` }),
      RelayState: relayState ?? "",
    });
    expect(res.status).toBe(302);
    const { params, location } = located(res);
    expect(location.hash).toBe("");
    expect(params).toEqual({ code: expect.any(String) });
    const exchanged = await send(app, "POST", "/token?grant_type=pkce", {
      auth_code: params.code,
      code_verifier: VERIFIER,
    });
    expect(exchanged.status).toBe(200);
    expect(await exchanged.json()).toMatchObject({ user: { email: "ada@example.com" } });
  });

  it("lands every refusal on SITE_URL with 303 and the error in the query only", async () => {
    const { acs, response, app } = await setup();
    const once = response({ id: "the-one" });
    expect((await acs({ SAMLResponse: once })).status).toBe(302);
    const cases: [Record<string, string>, string, string][] = [
      [{}, "validation_failed", "SAMLResponse is missing"],
      [{ SAMLart: "artifact" }, "validation_failed", "SAML Artifact response can only be used"],
      [{ SAMLResponse: once }, "validation_failed", "it was already used"],
      [
        { SAMLResponse: response(), RelayState: "33333333-3333-4333-8333-333333333333" },
        "saml_relay_state_not_found",
        "RelayState",
      ],
      [
        { SAMLResponse: JSON.stringify({ issuer: "https://stranger/m" }) },
        "saml_idp_not_found",
        "SAML connection",
      ],
    ];
    for (const [fields, code, message] of cases) {
      const res = await acs(fields);
      expect([fields, res.status]).toEqual([fields, 303]);
      const { location, params } = located(res);
      expect(`${location.origin}${location.pathname}`).toBe(`${SITE}/`);
      expect(location.hash).toBe("");
      expect(params.error_code).toBe(code);
      expect(params.error).toEqual(expect.any(String));
      expect(params.error_description).toContain(message);
    }
    // A body that is no form carries no fields.
    const notForm = await app.request("/sso/saml/acs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(notForm.status).toBe(303);
    expect(located(notForm).params.error_description).toBe("SAMLResponse is missing");
  });
});

describe("with SAML off", () => {
  it("answers every SSO route 404 saml_provider_disabled, as JSON, not a redirect", async () => {
    const { app, acs, response } = await setup({ enabled: false });
    const answers = [
      await send(app, "POST", "/sso", { domain: "example.com" }),
      await app.request("/sso/saml/metadata"),
      await acs({ SAMLResponse: response() }),
      await send(app, "POST", "/sso", { domain: "example.com" }, NEW_API),
    ];
    for (const res of answers.slice(0, 3)) {
      expect(res.status).toBe(404);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.json()).toMatchObject({ error_code: "saml_provider_disabled" });
    }
    expect(await answers[3]?.json()).toMatchObject({ code: "saml_provider_disabled" });
  });
});
