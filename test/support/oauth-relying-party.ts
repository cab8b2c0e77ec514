import { roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi } from "@supabase/auth-js";
import * as oauth from "oauth4webapi";
import { expect } from "vitest";
import { signedInUser } from "./oauth-server.js";
import type { ServerProcess } from "./server-process.js";

export const REDIRECT = "http://127.0.0.1:8123/callback";
export const insecure = { [oauth.allowInsecureRequests]: true } as const;

export interface Started {
  readonly authorizationId: string;
  readonly verifier: string;
  readonly state: string;
  readonly nonce: string;
}

/**
 * An independent relying party (oauth4webapi) of `server`: its discovery (strict issuer check), and
 * the steps of the flows the tests drive, the user's consent given through auth-js.
 */
export async function relyingParty(server: ServerProcess & { issuer: string }) {
  const issuer = new URL(server.issuer);
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }),
  );
  const admin = new GoTrueAdminApi({
    url: server.url,
    headers: { Authorization: `Bearer ${await roleKey("service_role")}` },
  });
  async function registerPublicClient(name = "Public app"): Promise<oauth.Client> {
    const response = await fetch(as.registration_endpoint as string, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: name,
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      }),
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ client_type: "public", token_endpoint_auth_method: "none" });
    expect(body.client_secret).toBeUndefined();
    return { client_id: body.client_id as string, token_endpoint_auth_method: "none" };
  }

  /** A confidential client created by the admin API (auth-js `admin.oauth.createClient`). */
  async function createConfidentialClient(method: "client_secret_basic" | "client_secret_post") {
    const { data, error } = await admin.oauth.createClient({
      client_name: `Confidential ${method}`,
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: method,
    });
    expect(error).toBeNull();
    const secret = data?.client_secret as string;
    expect(secret.length).toBeGreaterThanOrEqual(43);
    const client: oauth.Client = { client_id: data?.client_id as string, token_endpoint_auth_method: method };
    const auth =
      method === "client_secret_basic" ? oauth.ClientSecretBasic(secret) : oauth.ClientSecretPost(secret);
    return { client, auth, secret };
  }

  /** The browser's first step: `/oauth/authorize` with PKCE, followed to the consent page's address. */
  async function authorize(client: oauth.Client, scope = "openid email profile"): Promise<Started> {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const url = new URL(as.authorization_endpoint as string);
    url.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      response_type: "code",
      scope,
      state,
      nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    }).toString();
    const response = await fetch(url, { redirect: "manual" });
    expect(response.status).toBe(302);
    const consent = new URL(response.headers.get("location") as string);
    expect(`${consent.origin}${consent.pathname}`).toBe("http://localhost:3000/consent");
    return {
      authorizationId: consent.searchParams.get("authorization_id") as string,
      verifier,
      state,
      nonce,
    };
  }

  /** A user approves on the consent page; answers where the browser lands (the client's redirect URI). */
  async function approve(started: Started, person?: Awaited<ReturnType<typeof signedInUser>>) {
    const who = person ?? (await signedInUser(server.url, { name: "Ada Lovelace" }));
    const details = await who.client.oauth.getAuthorizationDetails(started.authorizationId);
    expect(details.error).toBeNull();
    const approved = await who.client.oauth.approveAuthorization(started.authorizationId, {
      skipBrowserRedirect: true,
    });
    expect(approved.error).toBeNull();
    return { landing: new URL((approved.data as { redirect_url: string }).redirect_url), who, details };
  }

  /** The whole code flow up to the token response. */
  async function codeFlow(client: oauth.Client, auth: oauth.ClientAuth, scope = "openid email profile") {
    const started = await authorize(client, scope);
    const { landing, who } = await approve(started);
    const params = oauth.validateAuthResponse(as, client, landing, started.state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      auth,
      params,
      REDIRECT,
      started.verifier,
      insecure,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, {
      expectedNonce: scope.includes("openid") ? started.nonce : oauth.expectNoNonce,
      requireIdToken: scope.includes("openid"),
    });
    return { tokens, who, started };
  }

  /** A raw token request, for the attacks oauth4webapi would not send. */
  const tokenRequest = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(as.token_endpoint as string, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields),
    });

  /** An approved code that was not exchanged yet. */
  async function approvedCode(client: oauth.Client) {
    const started = await authorize(client, "email");
    const { landing } = await approve(started);
    return { code: landing.searchParams.get("code") as string, started };
  }
  return {
    as,
    admin,
    registerPublicClient,
    createConfidentialClient,
    authorize,
    approve,
    codeFlow,
    tokenRequest,
    approvedCode,
  };
}
