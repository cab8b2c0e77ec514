import { describe, expect, it } from "vitest";
import type { RateLimits } from "../../http/middleware/rate-limit.js";
import { bearer, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

const CHALLENGE = "c".repeat(43);

/** An app with the OAuth server on, a client anyone registered and one an admin created, both on `uri`. */
async function withClients(uri: string, overrides: Parameters<typeof testApp>[0] = {}) {
  const t = testApp(overrides);
  const admin = await bearer(t.auth, { role: "service_role" });
  const body = { redirect_uris: [uri], token_endpoint_auth_method: "none" };
  const dynamic = await send(t.app, "POST", "/oauth/clients/register", body);
  const manual = await send(t.app, "POST", "/admin/oauth/clients", body, admin);
  const idOf = async (r: Response) => ((await r.json()) as { client_id: string }).client_id;
  return { ...t, admin, dynamicId: await idOf(dynamic), manualId: await idOf(manual) };
}

const authorizeUrl = (clientId: string, redirectUri: string, extra: Record<string, string> = {}) =>
  `/oauth/authorize?${new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: CHALLENGE,
    code_challenge_method: "S256",
    state: "st",
    ...extra,
  })}`;

describe("GET /oauth/authorize", () => {
  it("never redirects an error to a client anyone registered (RFC 9700 §4.11.2): it answers the browser", async () => {
    const evil = "https://evil.test/landing";
    const { app, dynamicId, manualId } = await withClients(evil);
    const noPkce = await app.request(authorizeUrl(dynamicId, evil, { code_challenge_method: "" }));
    expect(noPkce.status).toBe(400);
    expect(noPkce.headers.get("location")).toBeNull();
    expect(await noPkce.json()).toEqual({
      error: "invalid_request",
      error_description: "PKCE is required: code_challenge and code_challenge_method",
    });
    const badScope = await app.request(authorizeUrl(dynamicId, evil, { scope: "admin" }));
    expect(badScope.status).toBe(400);
    expect(badScope.headers.get("location")).toBeNull();
    // An admin created this one: its URI is trusted, and the error goes back to it with the state.
    const trusted = await app.request(authorizeUrl(manualId, evil, { scope: "admin" }));
    expect(trusted.status).toBe(302);
    const back = new URL(trusted.headers.get("location") as string);
    expect(`${back.origin}${back.pathname}`).toBe(evil);
    expect(back.searchParams.get("error")).toBe("invalid_scope");
    expect(back.searchParams.get("state")).toBe("st");
    // A good request of the dynamic client goes to the consent page, never to its URI.
    const good = await app.request(authorizeUrl(dynamicId, evil));
    expect(good.status).toBe(302);
    expect(good.headers.get("location")).toMatch(
      /^http:\/\/localhost:3000\/oauth\/consent\?authorization_id=/,
    );
  });

  it("answers invalid_target (RFC 8707 §2) for a resource outside OAUTH_SERVER_ALLOWED_RESOURCES", async () => {
    const uri = "https://app.example/cb";
    const base = testApp().auth.settings;
    const allowedResources = ["https://files.example/mcp", "https://*.tools.example/**"];
    const t = testApp({}, { oauthServer: { ...base.oauthServer, allowedResources } });
    const admin = await bearer(t.auth, { role: "service_role" });
    const body = { redirect_uris: [uri], token_endpoint_auth_method: "none" };
    const registered = await send(t.app, "POST", "/oauth/clients/register", body);
    const dynamicId = ((await registered.json()) as { client_id: string }).client_id;
    const created = await send(t.app, "POST", "/admin/oauth/clients", body, admin);
    const manualId = ((await created.json()) as { client_id: string }).client_id;
    const other = await t.app.request(authorizeUrl(dynamicId, uri, { resource: "https://evil.example/mcp" }));
    expect(other.status).toBe(400);
    expect(await other.json()).toEqual({
      error: "invalid_target",
      error_description: "resource is not served by this authorization server",
    });
    const back = await t.app.request(
      authorizeUrl(manualId, uri, { resource: "https://files.example/other" }),
    );
    expect(new URL(back.headers.get("location") as string).searchParams.get("error")).toBe("invalid_target");
    for (const resource of ["https://files.example/mcp", "https://a.tools.example/x/mcp", undefined]) {
      const ok = await t.app.request(authorizeUrl(dynamicId, uri, resource ? { resource } : {}));
      expect(ok.headers.get("location"), resource).toMatch(/\/oauth\/consent\?authorization_id=/);
    }
  });

  it("refuses PKCE plain, and advertises S256 alone", async () => {
    const uri = "https://app.example/cb";
    const { app, manualId } = await withClients(uri);
    const plain = await app.request(authorizeUrl(manualId, uri, { code_challenge_method: "plain" }));
    expect(plain.status).toBe(302);
    const back = new URL(plain.headers.get("location") as string);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("error_description")).toBe("code_challenge_method must be 'S256'");
    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
      const metadata = (await (await app.request(path)).json()) as Record<string, unknown>;
      expect(metadata.code_challenge_methods_supported, path).toEqual(["S256"]);
    }
  });

  it("counts each client address's requests by default, without RATE_LIMIT_HEADER", async () => {
    const uri = "https://app.example/cb";
    const rateLimit: RateLimits = {
      header: undefined,
      tokenPer5Min: 150,
      verifyPer5Min: 30,
      otpPer5Min: 30,
      authorizePer5Min: 30,
      oauthAuthorizePer5Min: 60,
    };
    const { app, dynamicId } = await withClients(uri, { rateLimit, trustedProxyHops: 1 });
    const from = (ip: string) => ({ headers: { "x-forwarded-for": ip } });
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push((await app.request(authorizeUrl(dynamicId, uri), from("192.0.2.7"))).status);
    expect(statuses.slice(0, 30).every((s) => s === 302)).toBe(true);
    expect(statuses[30]).toBe(429);
    expect((await app.request(authorizeUrl(dynamicId, uri), from("192.0.2.8"))).status).toBe(302);
  });
});

describe("redirect URIs a browser reads otherwise, or of another protocol", () => {
  it.each([
    "http://evil.test\\@localhost/cb",
    "https://app.example\\@evil.test/cb",
    "ftp://files.example/cb",
    "wss://app.example/cb",
  ])("are refused at dynamic registration and at an admin's creation: %s", async (uri) => {
    const t = testApp();
    const admin = await bearer(t.auth, { role: "service_role" });
    const body = { redirect_uris: [uri], token_endpoint_auth_method: "none" };
    for (const [path, headers] of [
      ["/oauth/clients/register", {}],
      ["/admin/oauth/clients", admin],
    ] as const) {
      const answer = await send(t.app, "POST", path, body, headers);
      expect(answer.status, path).toBe(400);
      expect(await answer.json(), path).toMatchObject({ error_code: "validation_failed" });
    }
  });
});
