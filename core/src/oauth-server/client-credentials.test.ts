import { describe, expect, it } from "vitest";
import { authenticate, authenticateAdmin, tokenKind } from "../sessions/index.js";
import { defaultAuthSettings, fakeDeps } from "../testing/index.js";
import { issueClientCredentials } from "./client-credentials.js";
import { registerClient, updateClient } from "./clients.js";
import { defineScope } from "./scopes.js";
import { introspectToken, revokeToken } from "./token-introspection.js";

const RESOURCE = "https://api.example/v1";
const claimsOf = (token: string) => JSON.parse(token.slice(4)) as Record<string, unknown>;

/** A confidential client an admin granted client_credentials, with `scope` as its allowed scopes. */
async function machine(scope = "files:read files:write", settings = {}) {
  const deps = fakeDeps(settings);
  for (const name of ["files:read", "files:write"])
    await defineScope(deps, { scope: name, description: `${name} of your files` });
  await defineScope(deps, { scope: "api:call", resource: RESOURCE, description: "Call the API" });
  const registered = await registerClient(deps, {
    registrationType: "manual",
    redirectUris: ["https://svc.example/cb"],
    grantTypes: ["client_credentials"],
    scope,
    name: "Nightly job",
  });
  if (!registered.ok) throw registered.error;
  return { deps, client: registered.value.client };
}

describe("issueClientCredentials", () => {
  it("issues the client its own token: sub = client_id, the allowed scopes, no session, no refresh token", async () => {
    const { deps, client } = await machine();
    const issued = await issueClientCredentials(deps, { dpop: null, client });
    if (!issued.ok) throw issued.error;
    expect(issued.value.refreshToken).toBeUndefined();
    expect(issued.value.idToken).toBeUndefined();
    expect(issued.value.scope).toBe("files:read files:write");
    const claims = claimsOf(issued.value.accessToken);
    expect(claims).toMatchObject({
      sub: client.id,
      client_id: client.id,
      scope: "files:read files:write",
      role: "anon",
      iss: "http://localhost:9999",
    });
    expect(claims.exp).toBe((claims.iat as number) + deps.settings.jwt.exp);
    expect(claims.jti).toEqual(expect.any(String));
    expect(claims).not.toHaveProperty("session_id");
    expect(claims).not.toHaveProperty("aud");
    expect(tokenKind(claims)).toBe("machine");
    expect(deps.store.tables.sessions.size).toBe(0);
  });

  it("narrows to the scopes asked, and names the resource asked in aud (RFC 8707)", async () => {
    const { deps, client } = await machine("files:read api:call");
    const issued = await issueClientCredentials(deps, {
      dpop: null,
      client,
      scope: "api:call",
      resource: RESOURCE,
    });
    if (!issued.ok) throw issued.error;
    expect(claimsOf(issued.value.accessToken)).toMatchObject({ scope: "api:call", aud: RESOURCE });
    // None asked, for the resource: every allowed scope that may go to it.
    const all = await issueClientCredentials(deps, { dpop: null, client, resource: RESOURCE });
    expect(all.ok && all.value.scope).toBe("files:read api:call");
    // None asked, no resource: the scope bound to the resource is left out.
    const unbound = await issueClientCredentials(deps, { dpop: null, client });
    expect(unbound.ok && unbound.value.scope).toBe("files:read");
  });

  it.each([
    ["a scope outside the client's", { scope: "files:read admin" }, "invalid_scope"],
    ["a custom scope not allowed to the client", { scope: "api:call", resource: RESOURCE }, "invalid_scope"],
    ["nothing: a scope of its own needs no resource", { scope: "files:read" }, null],
    ["a resource that is not an absolute URI", { resource: "api" }, "invalid_target"],
    ["a resource with a fragment", { resource: `${RESOURCE}#x` }, "invalid_target"],
  ])("refuses %s", async (_what, request, code) => {
    const { deps, client } = await machine();
    const issued = await issueClientCredentials(deps, { dpop: null, client, ...request });
    if (code === null) expect(issued.ok).toBe(true);
    else expect(issued).toMatchObject({ ok: false, error: { code } });
  });

  it("refuses a resource outside OAUTH_SERVER_ALLOWED_RESOURCES, and a scope bound to a resource without it", async () => {
    const settings = defaultAuthSettings();
    const { deps, client } = await machine("api:call", {
      oauthServer: { ...settings.oauthServer, allowedResources: ["https://api.example/**"] },
    });
    const elsewhere = await issueClientCredentials(deps, {
      dpop: null,
      client,
      resource: "https://evil.example/x",
    });
    expect(elsewhere).toMatchObject({ ok: false, error: { code: "invalid_target" } });
    const unbound = await issueClientCredentials(deps, { dpop: null, client, scope: "api:call" });
    expect(unbound).toMatchObject({
      ok: false,
      error: {
        code: "invalid_scope",
        message: `scope api:call is granted only for the resource ${RESOURCE}`,
      },
    });
  });

  it("refuses a public client, whatever its registration says", async () => {
    const { deps, client } = await machine();
    const issued = await issueClientCredentials(deps, {
      dpop: null,
      client: { ...client, clientType: "public", authMethod: "none", secretHash: null },
    });
    expect(issued).toMatchObject({ ok: false, error: { code: "unauthorized_client" } });
  });

  it("carries OAUTH_SERVER_CLIENT_CREDENTIALS_ROLE, never a user's role", async () => {
    const settings = defaultAuthSettings();
    const { deps, client } = await machine(undefined, {
      oauthServer: { ...settings.oauthServer, clientCredentialsRole: "machine" },
    });
    const issued = await issueClientCredentials(deps, { dpop: null, client });
    expect(issued.ok && claimsOf(issued.value.accessToken).role).toBe("machine");
  });

  it("binds the token to the request's DPoP key (RFC 9449 §5): cnf.jkt, answered by introspection", async () => {
    const { deps, client } = await machine();
    const jkt = "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I";
    const bound = await issueClientCredentials(deps, { dpop: { jkt }, client });
    if (!bound.ok) throw bound.error;
    expect(bound.value.boundTo).toBe(jkt);
    expect(claimsOf(bound.value.accessToken).cnf).toEqual({ jkt });
    expect(tokenKind(claimsOf(bound.value.accessToken))).toBe("machine");
    const seen = await introspectToken(deps, { client, token: bound.value.accessToken });
    expect(seen).toMatchObject({ ok: true, value: { active: true, cnf: { jkt } } });
    const plain = await issueClientCredentials(deps, { dpop: null, client });
    if (!plain.ok) throw plain.error;
    expect(plain.value.boundTo).toBeUndefined();
    expect(claimsOf(plain.value.accessToken)).not.toHaveProperty("cnf");
    expect(await introspectToken(deps, { client, token: plain.value.accessToken })).not.toMatchObject({
      value: { cnf: expect.anything() },
    });
  });
});

describe("a client_credentials token", () => {
  it("is refused wherever a user's token is taken (403 bad_jwt) and on the admin API (403 not_admin)", async () => {
    const { deps, client } = await machine();
    const issued = await issueClientCredentials(deps, { dpop: null, client });
    if (!issued.ok) throw issued.error;
    const bearerToken = issued.value.accessToken;
    for (const accepts of [["user"], ["user", "client"], ["client"]] as const)
      expect(await authenticate(deps, { bearerToken, accepts })).toMatchObject({
        ok: false,
        error: { code: "bad_jwt", failure: "machineTokenRefused" },
      });
    expect(await authenticateAdmin(deps, { bearerToken })).toMatchObject({
      ok: false,
      error: { code: "not_admin", failure: "machineTokenNotAdmin" },
    });
  });

  it("is never an admin credential, even signed with an admin role", async () => {
    const { deps, client } = await machine();
    const forged = `jwt.${JSON.stringify({ sub: client.id, client_id: client.id, role: "service_role", exp: 4e9 })}`;
    expect(await authenticateAdmin(deps, { bearerToken: forged })).toMatchObject({
      ok: false,
      error: { code: "not_admin" },
    });
  });

  it("is active at introspection for its own client only, and revocation says it cannot be revoked (RFC 7009 §2.2.1)", async () => {
    const { deps, client } = await machine("files:read api:call");
    const issued = await issueClientCredentials(deps, { dpop: null, client, resource: RESOURCE });
    if (!issued.ok) throw issued.error;
    const token = issued.value.accessToken;
    const seen = await introspectToken(deps, { client, token });
    expect(seen).toMatchObject({
      ok: true,
      value: {
        active: true,
        client_id: client.id,
        sub: client.id,
        scope: "files:read api:call",
        aud: RESOURCE,
      },
    });
    const other = await registerClient(deps, {
      registrationType: "manual",
      redirectUris: ["https://other.example/cb"],
      grantTypes: ["client_credentials"],
    });
    if (!other.ok) throw other.error;
    expect(await introspectToken(deps, { client: other.value.client, token })).toEqual({
      ok: true,
      value: { active: false },
    });
    expect(await revokeToken(deps, { client: other.value.client, token })).toEqual({
      ok: true,
      value: undefined,
    });
    expect(await revokeToken(deps, { client, token })).toMatchObject({
      ok: false,
      error: { code: "unsupported_token_type" },
    });
    // The admin takes the grant back: the client's tokens read as inactive from then on.
    const updated = await updateClient(deps, {
      id: client.id,
      fields: { grantTypes: ["authorization_code"] },
    });
    if (!updated.ok) throw updated.error;
    expect(await introspectToken(deps, { client: updated.value, token })).toEqual({
      ok: true,
      value: { active: false },
    });
  });
});

describe("registering the grant and the scopes", () => {
  const base = { redirectUris: ["https://svc.example/cb"], grantTypes: ["client_credentials"] };

  it("refuses client_credentials to a public client and to dynamic registration", async () => {
    const deps = fakeDeps();
    expect(
      await registerClient(deps, { ...base, registrationType: "manual", clientType: "public" }),
    ).toMatchObject({
      ok: false,
      error: {
        code: "validation_failed",
        message: "grant_type 'client_credentials' is for confidential clients only",
      },
    });
    expect(await registerClient(deps, { ...base, registrationType: "dynamic" })).toMatchObject({
      ok: false,
      error: {
        code: "validation_failed",
        message: expect.stringMatching(/cannot be registered dynamically/),
      },
    });
    const publicClient = await registerClient(deps, {
      redirectUris: base.redirectUris,
      registrationType: "manual",
      clientType: "public",
    });
    if (!publicClient.ok) throw publicClient.error;
    expect(
      await updateClient(deps, {
        id: publicClient.value.client.id,
        fields: { grantTypes: ["client_credentials"] },
      }),
    ).toMatchObject({ ok: false, error: { code: "validation_failed" } });
  });

  it("takes scope as the client's allowed scopes: known ones only, answered back, cleared by an empty one", async () => {
    const deps = fakeDeps();
    await defineScope(deps, { scope: "files:read", description: "Read your files" });
    const unknown = await registerClient(deps, {
      ...base,
      registrationType: "manual",
      scope: "files:read nope",
    });
    expect(unknown).toMatchObject({ ok: false, error: { message: "scope 'nope' is not supported" } });
    const made = await registerClient(deps, {
      ...base,
      registrationType: "manual",
      scope: "files:read  email",
    });
    if (!made.ok) throw made.error;
    expect(made.value.client.scope).toBe("files:read email");
    const cleared = await updateClient(deps, { id: made.value.client.id, fields: { scope: "" } });
    expect(cleared.ok && cleared.value.scope).toBeNull();
  });
});
