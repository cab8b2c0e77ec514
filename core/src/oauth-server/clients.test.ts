import { describe, expect, it } from "vitest";
import { fakeDeps } from "../testing/index.js";
import { redirectUriProblem } from "./client.js";
import { regenerateClientSecret, registerClient, updateClient } from "./clients.js";
import { withQuery } from "./query.js";

describe("redirectUriProblem", () => {
  it.each([
    ["https://app.example/cb", null],
    ["myapp://callback", null],
    ["http://localhost:3000/cb", null],
    ["http://127.0.0.1/cb", null],
    ["http://[::1]:8080/cb", null],
    ["http://example.com/cb", "redirect URI with scheme 'http' is only allowed for localhost"],
    ["http://localhost.evil.example/cb", "redirect URI with scheme 'http' is only allowed for localhost"],
    [
      "http://localhost@evil.example/cb",
      "redirect URI must read the same to every parser: no userinfo, control characters, encoded or numeric host",
    ],
    ["JavaScript://x/%0aalert(1)", "redirect URI scheme 'javascript' is not allowed"],
    ["data://text/html,x", "redirect URI scheme 'data' is not allowed"],
    ["myapp:/cb", "redirect URI must have a scheme and a host"],
    ["/relative", "redirect URI must have a scheme and a host"],
    ["https://app.example/cb#x", "fragment not allowed in redirect URI"],
  ])("%s", (uri, problem) => {
    expect(redirectUriProblem(uri)).toBe(problem);
  });
});

describe("withQuery", () => {
  it("keeps the redirect URI's own query and encodes what it adds", () => {
    expect(withQuery("https://a.example/cb?x=1", { code: "a b&c", state: "é" })).toBe(
      "https://a.example/cb?x=1&code=a%20b%26c&state=%C3%A9",
    );
    expect(withQuery("myapp://cb", { code: "1" })).toBe("myapp://cb?code=1");
  });
});

describe("registerClient", () => {
  const base = { registrationType: "dynamic" as const, redirectUris: ["https://app.example/cb"] };

  it("infers the type from the method and the method from the type, and stores only the secret's hash", async () => {
    const deps = fakeDeps();
    const confidential = await registerClient(deps, base);
    expect(confidential).toMatchObject({
      ok: true,
      value: { client: { clientType: "confidential", authMethod: "client_secret_basic" } },
    });
    if (!confidential.ok) throw new Error("refused");
    const { client, secret } = confidential.value;
    expect(secret).not.toBeNull();
    expect(client.secretHash).toBe(deps.tokens.hash(secret as string));
    expect(await registerClient(deps, { ...base, authMethod: "none" })).toMatchObject({
      ok: true,
      value: { client: { clientType: "public", authMethod: "none", secretHash: null }, secret: null },
    });
    expect(await registerClient(deps, { ...base, clientType: "public" })).toMatchObject({
      ok: true,
      value: { client: { authMethod: "none" } },
    });
  });

  it.each([
    [{ redirectUris: [] }, "redirect_uris is required"],
    [
      { clientType: "public", authMethod: "client_secret_post" },
      "public clients must use token_endpoint_auth_method 'none'",
    ],
    [
      { clientType: "confidential", authMethod: "none" },
      "confidential clients cannot use token_endpoint_auth_method 'none'",
    ],
    [
      { authMethod: "tls_client_auth" },
      "token_endpoint_auth_method must be one of client_secret_basic, client_secret_post, private_key_jwt, client_secret_jwt, none",
    ],
    [{ authMethod: "private_key_jwt" }, "private_key_jwt needs jwks or jwks_uri"],
    [{ grantTypes: ["implicit"] }, "grant_type 'implicit' is not supported"],
    [{ name: "n".repeat(1025) }, "client_name must be at most 1024 characters"],
    [{ logoUri: "javascript:alert(1)" }, "logo_uri must be an absolute http(s) URL"],
  ])("refuses %j", async (fields, message) => {
    const deps = fakeDeps();
    expect(await registerClient(deps, { ...base, ...fields })).toMatchObject({
      ok: false,
      error: { code: "validation_failed", message },
    });
    expect(await deps.store.oauthClients.list({ offset: 0, limit: 10 })).toEqual({ clients: [], total: 0 });
  });

  it("changes what an update names, never the type, and a new secret replaces the old", async () => {
    const deps = fakeDeps();
    const created = await registerClient(deps, { ...base, registrationType: "manual" });
    if (!created.ok) throw new Error("refused");
    const id = created.value.client.id;
    expect(await updateClient(deps, { id, fields: {} })).toMatchObject({
      ok: false,
      error: { message: "No fields provided for update" },
    });
    expect(await updateClient(deps, { id, fields: { authMethod: "none" } })).toMatchObject({ ok: false });
    expect(
      await updateClient(deps, { id, fields: { name: "New", authMethod: "client_secret_post" } }),
    ).toMatchObject({
      ok: true,
      value: { name: "New", authMethod: "client_secret_post", clientType: "confidential" },
    });
    const renewed = await regenerateClientSecret(deps, id);
    if (!renewed.ok) throw new Error("refused");
    expect(renewed.value.secret).not.toBe(created.value.secret);
    expect((await deps.store.oauthClients.find(id))?.secretHash).toBe(
      deps.tokens.hash(renewed.value.secret as string),
    );
    expect(await updateClient(deps, { id: "nope", fields: { name: "x" } })).toMatchObject({
      ok: false,
      error: { code: "validation_failed" },
    });
  });
});
