import { createHash } from "node:crypto";
import { expect } from "vitest";
import type { oauthBrowser } from "./oauth-browser.js";
import { OP_CLIENT, type OpenIdProvider } from "./openid-provider.js";

/** The body that creates an OpenID custom provider at the test's OpenID Provider. */
export const oidcProviderBody = (
  op: OpenIdProvider,
  identifier: string,
  extra: Record<string, unknown> = {},
) => ({
  provider_type: "oidc" as const,
  identifier,
  name: `Provider ${identifier}`,
  client_id: OP_CLIENT.id,
  client_secret: OP_CLIENT.secret,
  issuer: op.realm,
  scopes: ["email", "profile"],
  ...extra,
});

/** The body that creates an OAuth 2.0 custom provider on the OpenID Provider's endpoints (user info, no discovery). */
export const oauth2ProviderBody = (
  op: OpenIdProvider,
  identifier: string,
  extra: Record<string, unknown> = {},
) => ({
  provider_type: "oauth2" as const,
  identifier,
  name: `Provider ${identifier}`,
  client_id: OP_CLIENT.id,
  client_secret: OP_CLIENT.secret,
  authorization_url: `${op.realm}/protocol/openid-connect/auth`,
  token_url: `${op.realm}/protocol/openid-connect/token`,
  userinfo_url: `${op.realm}/protocol/openid-connect/userinfo`,
  // oidc-provider serves user info only to tokens issued with `openid`.
  scopes: ["openid", "email", "profile"],
  ...extra,
});

/** An ID token the provider issues to the client for `account`, with the hashed `nonce` in it. */
export async function idTokenFor(
  op: OpenIdProvider,
  browser: ReturnType<typeof oauthBrowser>,
  callback: string,
  account: string,
  nonce: string,
): Promise<string> {
  const authorize = new URL(`${op.realm}/protocol/openid-connect/auth`);
  authorize.search = new URLSearchParams({
    client_id: OP_CLIENT.id,
    redirect_uri: callback,
    response_type: "code",
    scope: "openid email profile",
    state: "s",
    nonce: createHash("sha256").update(nonce).digest("hex"),
  }).toString();
  const back = await browser.throughProvider(authorize.toString(), account);
  const res = await fetch(`${op.realm}/protocol/openid-connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: back.searchParams.get("code") ?? "",
      redirect_uri: callback,
      client_id: OP_CLIENT.id,
      client_secret: OP_CLIENT.secret,
    }),
  });
  const body = (await res.json()) as { id_token?: string };
  expect(body.id_token).toEqual(expect.any(String));
  return body.id_token ?? "";
}
