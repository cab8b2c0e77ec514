import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import type { User } from "@supabase/auth-js";
import { expect } from "vitest";
import { browserClient } from "./browser-client.js";
import { oauthBrowser } from "./oauth-browser.js";
import { OP_CLIENT, type OpenIdProvider, startOpenIdProvider } from "./openid-provider.js";
import { type ServerProcess, startServer } from "./server-process.js";

/** The redirect URI registered at the provider: the public address (API_EXTERNAL_URL) of /callback. */
export const KEYCLOAK_CALLBACK = "http://localhost:9999/callback";
/** Where the sign-ins ask to land (`SITE_URL`'s origin). */
export const WELCOME = "http://localhost:3000/welcome";

export interface KeycloakServer {
  readonly ns: FreshNamespace;
  readonly op: OpenIdProvider;
  readonly server: ServerProcess;
  /** A browser for the round trip through the provider (support/oauth-browser.ts). */
  readonly browser: ReturnType<typeof oauthBrowser>;
  /** Signs in with the provider as `login` through auth-js; answers the user the landing's session is for. */
  signIn(login: string): Promise<User | null>;
  stop(): Promise<void>;
}

/**
 * authsvc on a fresh namespace, its Keycloak provider pointed at a real OpenID Provider
 * (support/openid-provider.ts) and `env` on top, with a browser for the provider's round trip.
 */
export async function startKeycloakServer(env: Record<string, string>): Promise<KeycloakServer> {
  const cwd = mkdtempSync(join(tmpdir(), "authsvc-keycloak-"));
  const ns = await migratedNamespace();
  const op = await startOpenIdProvider([KEYCLOAK_CALLBACK]);
  const server = await startServer(
    productionServerEnv(ns, {
      AUTHSVC_EXTERNAL_KEYCLOAK_ENABLED: "true",
      AUTHSVC_EXTERNAL_KEYCLOAK_CLIENT_ID: OP_CLIENT.id,
      AUTHSVC_EXTERNAL_KEYCLOAK_SECRET: OP_CLIENT.secret,
      AUTHSVC_EXTERNAL_KEYCLOAK_URL: op.realm,
      ...env,
    }),
    { cwd },
  );
  const browser = oauthBrowser({
    serverUrl: server.url,
    providerOrigin: new URL(op.realm).origin,
    callbackUrl: KEYCLOAK_CALLBACK,
  });
  const client = () => browserClient(server.url).client;
  return {
    ns,
    op,
    server,
    browser,
    async signIn(login) {
      const { data } = await client().signInWithOAuth({
        provider: "keycloak",
        options: { redirectTo: WELCOME, scopes: "openid", skipBrowserRedirect: true },
      });
      const { status, landing } = await browser.callback(
        await browser.throughProvider(data.url ?? "", login),
      );
      expect(status).toBe(302);
      const token = new URLSearchParams(landing.hash.slice(1)).get("access_token");
      expect(token, landing.toString()).toBeTruthy();
      const { data: me, error } = await client().getUser(token ?? "");
      expect(error).toBeNull();
      return me.user;
    },
    async stop() {
      await server.stop();
      await op.close();
      await ns.drop();
      rmSync(cwd, { recursive: true, force: true });
    },
  };
}
