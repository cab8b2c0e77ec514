import { fakeProviders } from "@authsvc/core/testing";
import { describe, expect, it } from "vitest";
import { MODULES } from "../../composition/modules.js";
import type { AuthMiddleware } from "../../http/middleware/auth.js";
import { operationsOf } from "../../openapi/document.js";
import { VERIFIER, withPublicClient } from "../../testing/oauth-client.js";
import { send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

const RESOURCE = "https://mcp.example/mcp";

/** The claims of a token of the fake signers (`jwt.<json>`: the ID token signer signs with the same key). */
const claimsOf = (token: string) => JSON.parse(token.slice(4)) as Record<string, unknown>;

/**
 * Ann (whose role is `role`), a public client and a keycloak provider (for `grant_type=id_token`);
 * `tokensFor` runs the code flow for `scope`.
 */
async function withClient(role = "authenticated") {
  const t = await withPublicClient(role, { manualLinkingEnabled: true });
  const idp = fakeProviders("keycloak");
  t.auth.providers = idp.providers;
  const tokensFor = async (scope: string, resource?: string) => {
    const id = await t.start(scope, resource);
    // Opened by the user: approved at once when the user already consented to the scopes.
    const landing = (await t.open(id)).redirect_url ?? (await t.approve(id));
    const code = new URL(landing).searchParams.get("code") as string;
    const exchanged = await send(t.app, "POST", "/oauth/token", {
      grant_type: "authorization_code",
      code,
      code_verifier: VERIFIER,
      client_id: t.clientId,
      ...(resource ? { resource } : {}),
    });
    expect(exchanged.status).toBe(200);
    return (await exchanged.json()) as { access_token: string; refresh_token: string; id_token?: string };
  };
  /** A confidential client an admin granted client_credentials, and a token of its own. */
  const machineToken = async () => {
    const service = `jwt.${JSON.stringify({ role: "service_role", exp: 4e9 })}`;
    const created = await send(
      t.app,
      "POST",
      "/admin/oauth/clients",
      { redirect_uris: ["https://svc.example/cb"], grant_types: ["client_credentials"] },
      { authorization: `Bearer ${service}` },
    );
    expect(created.status).toBe(201);
    const { client_id, client_secret } = (await created.json()) as Record<string, string>;
    const issued = await t.app.request("/oauth/token", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${client_id}:${client_secret}`).toString("base64")}`,
      },
      body: "grant_type=client_credentials",
    });
    expect(issued.status).toBe(200);
    const answer = (await issued.json()) as Record<string, string>;
    expect(answer).not.toHaveProperty("refresh_token");
    return answer.access_token as string;
  };
  return { ...t, idp, tokensFor, machineToken };
}

describe("an ID token is never a bearer token", () => {
  it("is refused on the user's account, even for the audience it names (X-JWT-AUD: the client)", async () => {
    const { app, clientId, tokensFor } = await withClient();
    const { id_token: idToken } = await tokensFor("openid email");
    if (!idToken) throw new Error("no ID token");
    expect(claimsOf(idToken)).toMatchObject({ token_use: "id", aud: [clientId] });
    const asIdToken = { authorization: `Bearer ${idToken}`, "x-jwt-aud": clientId };
    const changed = await send(app, "PUT", "/user", { password: "taken-over" }, asIdToken);
    expect(changed.status).toBe(403);
    expect(await changed.json()).toMatchObject({ error_code: "bad_jwt" });
    const stolen = await send(app, "POST", "/token?grant_type=password", {
      email: "ann@example.com",
      password: "taken-over",
    });
    expect(stolen.status).toBe(400);
    for (const [method, path] of [
      ["GET", "/user"],
      ["POST", "/factors"],
      ["GET", "/user/sessions"],
      ["GET", "/user/oauth/grants"],
      ["GET", "/passkeys"],
      ["POST", "/logout"],
    ] as const) {
      const answer = await send(app, method, path, method === "GET" ? undefined : {}, asIdToken);
      expect([path, answer.status]).toEqual([path, 403]);
    }
    expect((await app.request("/user", { headers: { authorization: `Bearer ${idToken}` } })).status).toBe(
      403,
    );
    // Not at the client's own endpoint either: an ID token tells the client who signed in, nothing more.
    expect((await app.request("/oauth/userinfo", { headers: asIdToken })).status).toBe(403);
  });

  it("is refused as the bearer of an identity link (grant_type=id_token, link_identity)", async () => {
    const { app, idp, auth, ann, tokensFor } = await withClient();
    const { id_token: idToken } = await tokensFor("openid email");
    const linked = await send(
      app,
      "POST",
      "/token?grant_type=id_token",
      {
        provider: "keycloak",
        id_token: idp.idToken({ subject: "kc-mallory", email: "mallory@example.com", verified: true }),
        link_identity: true,
      },
      { authorization: `Bearer ${idToken}` },
    );
    expect(linked.status).toBe(403);
    expect(await linked.json()).toMatchObject({ error_code: "bad_jwt" });
    const identities = [...auth.store.tables.identities.values()].filter((i) => i.userId === ann.id);
    expect(identities.map((i) => i.provider)).toEqual(["email"]);
  });
});

describe("an OAuth client's access token", () => {
  it("of a user whose role is an admin role carries no admin role and is refused by /admin/*", async () => {
    const { app, user, tokensFor } = await withClient("service_role");
    // The user's own token is an admin credential (an admin gave the user that role) …
    expect((await app.request("/admin/users", { headers: user })).status).toBe(200);
    // … the client's is not, whatever the user's role.
    const { access_token: token } = await tokensFor("email");
    expect(claimsOf(token)).toMatchObject({ role: "authenticated" });
    const asClient = { authorization: `Bearer ${token}` };
    for (const path of ["/admin/users", "/admin/oauth/clients", "/admin/audit"]) {
      const read = await app.request(path, { headers: asClient });
      expect([path, read.status]).toEqual([path, 403]);
    }
  });

  it("names the resource it was requested for (RFC 8707) in aud, beside the first-party audience", async () => {
    const { app, clientId, tokensFor } = await withClient();
    const tokens = await tokensFor("email", RESOURCE);
    expect(claimsOf(tokens.access_token).aud).toEqual(["authenticated", RESOURCE]);
    expect(
      (await app.request("/oauth/userinfo", { headers: { authorization: `Bearer ${tokens.access_token}` } }))
        .status,
    ).toBe(200);
    const refreshed = await send(app, "POST", "/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
    const { access_token: next } = (await refreshed.json()) as { access_token: string };
    expect(claimsOf(next).aud).toEqual(["authenticated", RESOURCE]);
    // Without a resource, the audience stays the first-party one, a string as GoTrue's.
    expect(claimsOf((await tokensFor("email")).access_token).aud).toBe("authenticated");
  });
});

/** What a route of the app declares it accepts: its authentication middleware's kinds, or none. */
function declarations(app: { routes: readonly { method: string; path: string; handler: unknown }[] }) {
  const routes = new Map<string, { method: string; path: string; auth?: AuthMiddleware }>();
  for (const { method, path, handler } of app.routes) {
    if (method === "ALL") continue;
    const key = `${method} ${path}`;
    const route = routes.get(key) ?? { method, path };
    const declared = typeof handler === "function" && "accepts" in handler;
    routes.set(key, declared ? { ...route, auth: handler as AuthMiddleware } : route);
  }
  return [...routes.values()];
}

/** A request path for a route pattern: every parameter a UUID nothing has, a wildcard a segment. */
const concrete = (path: string) =>
  path.replace(/:[A-Za-z_]+/g, "00000000-0000-4000-8000-0000000000ff").replace(/\*/g, "x");

/** `METHOD /path` with every parameter written `{}` (Hono's `:name`, OpenAPI's `{name}`, a rest `/*`). */
const normal = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.replace(/:[^/]+|\{[^}]+\}|(?<=\/)\*$/g, "{}")}`;

describe("every route of the app", () => {
  it("puts the authentication its description (OpenAPI `access`) announces: user, admin, or none", () => {
    const { app } = testApp();
    const access = new Map(MODULES.flatMap(operationsOf).map((o) => [normal(o.method, o.path), o.access]));
    for (const { method, path, auth } of declarations(app)) {
      const put = auth === undefined ? "none" : auth.admin ? "admin" : "user";
      const announced = access.get(normal(method, path));
      const expected = announced === "user" || announced === "admin" ? announced : "none";
      expect([method, path, put]).toEqual([method, path, expected]);
    }
  });

  it("declares the token kinds it accepts where its authentication is put, and refuses the others", async () => {
    const { app, clientId, tokensFor, machineToken } = await withClient();
    // One scope: the fake signer's tokens are JSON, and a space would end the bearer header's token.
    const { id_token: idToken, access_token: clientToken } = await tokensFor("openid");
    const ownToken = await machineToken();
    const routes = declarations(app);
    expect(routes.length).toBeGreaterThan(80);
    const guarded = routes.filter((r) => r.auth !== undefined);
    // The account and the admin API are guarded, every route of them. The admin console's pages are
    // not bearer routes: its own session cookie signs them in (modules/admin-console).
    const family =
      /^\/(user|factors|passkeys$|passkeys\/(registration|:)|admin(?!\/console)|invite$|logout$|reauthenticate$|oauth\/(userinfo|authorizations))/;
    for (const route of routes.filter((r) => family.test(r.path)))
      expect([route.method, route.path, route.auth !== undefined]).toEqual([route.method, route.path, true]);
    for (const { method, path, auth } of guarded) {
      if (auth === undefined) continue;
      const at = concrete(path);
      const body = method === "GET" || method === "DELETE" ? undefined : {};
      expect(auth.accepts).not.toContain("id_token");
      const asIdToken = await send(app, method, at, body, {
        authorization: `Bearer ${idToken}`,
        "x-jwt-aud": clientId,
      });
      expect([
        method,
        path,
        asIdToken.status,
        ((await asIdToken.json()) as { error_code?: string }).error_code,
      ]).toEqual([method, path, 403, "bad_jwt"]);
      // A client's own token (client_credentials): no route of a user or an admin takes it.
      expect(auth.accepts).not.toContain("machine");
      const asMachine = await send(app, method, at, body, { authorization: `Bearer ${ownToken}` });
      expect([
        method,
        path,
        asMachine.status,
        ((await asMachine.json()) as { error_code?: string }).error_code,
      ]).toEqual([method, path, 403, auth.admin ? "not_admin" : "bad_jwt"]);
      if (auth.accepts.includes("client")) continue;
      const asClient = await send(app, method, at, body, { authorization: `Bearer ${clientToken}` });
      const refusal = auth.admin ? "not_admin" : "bad_jwt";
      expect([
        method,
        path,
        asClient.status,
        ((await asClient.json()) as { error_code?: string }).error_code,
      ]).toEqual([method, path, 403, refusal]);
    }
    // A route that reads no token (or reads it itself, as the identity link) never does more for one.
    for (const { method, path } of routes.filter((r) => r.auth === undefined)) {
      const at = concrete(path);
      const body = method === "GET" || method === "DELETE" ? undefined : {};
      const without = await send(app, method, at, body);
      for (const token of [idToken, clientToken, ownToken]) {
        const withToken = await send(app, method, at, body, {
          authorization: `Bearer ${token}`,
          "x-jwt-aud": clientId,
        });
        const gained = withToken.status < 400 && without.status >= 400;
        expect([method, path, gained]).toEqual([method, path, false]);
      }
    }
  });
});
