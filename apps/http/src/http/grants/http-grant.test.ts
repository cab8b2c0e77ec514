import type { OAuthClient } from "@authsvc/core/oauth-server";
import { describe, expect, it } from "vitest";
import { authorizationCodeHttpGrant } from "../../modules/oauth-server/authorization-code-grant.js";
import { clientRefreshTokenHttpGrant } from "../../modules/oauth-server/client-refresh-token-grant.js";
import { pkceHttpGrant } from "../../modules/pkce/pkce-grant.js";
import { passwordHttpGrant } from "../../modules/sessions/password-grant.js";
import { refreshTokenHttpGrant } from "../../modules/sessions/refresh-token-grant.js";
import { withPublicClient } from "../../testing/oauth-client.js";
import { NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";
import { httpGrantRegistry } from "./http-grant.js";

const grants = [
  passwordHttpGrant,
  refreshTokenHttpGrant,
  pkceHttpGrant,
  authorizationCodeHttpGrant,
  clientRefreshTokenHttpGrant,
];

describe("the grant registry", () => {
  it("refuses at POST /oauth/token a grant type offered at POST /token only", () => {
    const registry = httpGrantRegistry(grants);
    expect(registry.at("/token").lookup("pkce")).toBeDefined();
    expect(registry.at("/oauth/token").lookup("pkce")).toBeUndefined();
    expect(registry.at("/oauth/token").lookup("password")).toBeUndefined();
  });

  it("refuses at POST /token a grant type offered at POST /oauth/token only", () => {
    const registry = httpGrantRegistry(grants);
    expect(registry.at("/oauth/token").lookup("authorization_code")).toBeDefined();
    expect(registry.at("/token").lookup("authorization_code")).toBeUndefined();
  });

  it("holds one grant type at each endpoint apart: refresh_token is a first-party's at one, a client's at the other", () => {
    const registry = httpGrantRegistry(grants);
    expect(registry.at("/token").types).toEqual(["password", "refresh_token", "pkce"]);
    expect(registry.at("/oauth/token").types).toEqual(["authorization_code", "refresh_token"]);
  });

  it("refuses a grant type offered twice at one endpoint when it is built", () => {
    expect(() => httpGrantRegistry([...grants, pkceHttpGrant])).toThrow(/"pkce" registered twice/);
  });
});

describe("a grant type offered at the other endpoint only", () => {
  it("is answered at POST /token as an unknown grant type is", async () => {
    const { app } = testApp();
    for (const headers of [NEW_API, {}]) {
      const unknown = await send(app, "POST", "/token?grant_type=no_such_grant", {}, headers);
      const elsewhere = await send(app, "POST", "/token?grant_type=authorization_code", {}, headers);
      expect(elsewhere.status).toBe(unknown.status);
      expect(await elsewhere.json()).toEqual(await unknown.json());
    }
  });

  it("is answered at POST /oauth/token as an unknown grant type is, even when the client lists it", async () => {
    const { app, auth, clientId } = await withPublicClient();
    // The client may use `pkce` and `no_such_grant`: only the registry refuses them.
    const clients = auth.store.oauthClients;
    const find = clients.find.bind(clients);
    Object.assign(clients, {
      find: async (id: string) => {
        const client = await find(id);
        return (
          client &&
          ({ ...client, grantTypes: [...client.grantTypes, "pkce", "no_such_grant"] } as OAuthClient)
        );
      },
    });
    const ask = (grantType: string) =>
      send(app, "POST", "/oauth/token", { grant_type: grantType, client_id: clientId, auth_code: "x" });
    const unknown = await ask("no_such_grant");
    const elsewhere = await ask("pkce");
    expect(unknown.status).toBe(400);
    expect(elsewhere.status).toBe(400);
    expect(await unknown.json()).toEqual({
      error: "unsupported_grant_type",
      error_description: "Unsupported grant type: no_such_grant",
    });
    expect(await elsewhere.json()).toEqual({
      error: "unsupported_grant_type",
      error_description: "Unsupported grant type: pkce",
    });
  });
});
