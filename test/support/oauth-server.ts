import { join } from "node:path";
import { generateJwtKey } from "@authsvc/adapters";
import type { FreshNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, TEST_JWT_SECRET } from "@authsvc/http/testing";
import { GoTrueClient } from "@supabase/auth-js";
import { freePort } from "./free-port.js";
import { type ServerProcess, startServer } from "./server-process.js";

/**
 * The OAuth server on `ns`, or in embedded mode (PGlite in a data folder under `cwd`): an RS256
 * signing key (ID tokens need one) beside the e2e secret as a verify-only key (the API keys), issuer
 * and external URL at the server's own address.
 */
export async function startOAuthServer(
  ns: FreshNamespace | "embedded",
  cwd: string,
  extra: Record<string, string> = {},
  /** Where clients reach the API, e.g. `/auth/v1`: the issuer and every advertised endpoint are under it. */
  basePath = "",
): Promise<ServerProcess & { issuer: string }> {
  // The issuer must be known before the server starts (discovery checks it): a port chosen beforehand.
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}${basePath}`;
  const keys = [
    generateJwtKey("RS256"),
    {
      kty: "oct",
      kid: "legacy-secret",
      alg: "HS256",
      key_ops: ["verify"],
      k: Buffer.from(TEST_JWT_SECRET).toString("base64url"),
    },
  ];
  const database =
    ns === "embedded"
      ? {
          AUTHSVC_DATA_DIR: join(cwd, "data"),
          AUTHSVC_SITE_URL: "http://localhost:3000",
          AUTHSVC_JWT_SECRET: TEST_JWT_SECRET,
        }
      : productionServerEnv(ns);
  const env = {
    ...database,
    PORT: String(port),
    AUTHSVC_JWT_ISSUER: issuer,
    AUTHSVC_API_EXTERNAL_URL: issuer,
    AUTHSVC_JWT_KEYS: JSON.stringify(keys),
    AUTHSVC_MAILER_AUTOCONFIRM: "true",
    AUTHSVC_OAUTH_SERVER_ENABLED: "true",
    AUTHSVC_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION: "true",
    AUTHSVC_OAUTH_SERVER_AUTHORIZATION_PATH: "/consent",
    ...extra,
  };
  const server = await startServer(env, { cwd });
  return Object.assign(server, { issuer });
}

let people = 0;

/** A signed-up, signed-in user of the server, as a consent page holds one (auth-js, no browser). */
export async function signedInUser(url: string, metadata: Record<string, unknown> = {}) {
  const client = new GoTrueClient({
    url,
    autoRefreshToken: false,
    persistSession: false,
    storageKey: `oauth-consent-${Math.random()}`,
  });
  const email = `person-${++people}-${Date.now()}@example.com`;
  const { data, error } = await client.signUp({
    email,
    password: "a-long-enough-password-1",
    options: { data: metadata },
  });
  if (error || !data.user) throw error ?? new Error("no user");
  return { client, user: data.user, email };
}
