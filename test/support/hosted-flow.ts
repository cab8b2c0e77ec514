import * as oauth from "oauth4webapi";
import { expect } from "vitest";

export const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** One authorization request of a relying party: its client, PKCE verifier, state, nonce and URL. */
export interface Flow {
  readonly client: oauth.Client;
  readonly verifier: string;
  readonly state: string;
  readonly nonce: string;
  readonly url: string;
}

/**
 * A relying party (oauth4webapi) of the server at `issuer`, whose browser goes through the hosted
 * pages: it registers a public client for `redirectUri`, starts a code flow with PKCE, and completes
 * it from the URL the browser landed on (the ID token checked).
 */
export async function hostedPagesRelyingParty(issuer: string, redirectUri: string) {
  const url = new URL(issuer);
  const as = await oauth.processDiscoveryResponse(
    url,
    await oauth.discoveryRequest(url, { algorithm: "oidc", ...insecure }),
  );

  async function registerClient(metadata: Record<string, unknown> = {}): Promise<oauth.Client> {
    const response = await fetch(as.registration_endpoint as string, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "Hosted pages' test app",
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: "none",
        ...metadata,
      }),
    });
    expect(response.status).toBe(201);
    const { client_id } = (await response.json()) as { client_id: string };
    return { client_id, token_endpoint_auth_method: "none" };
  }

  async function startFlow(extra: Record<string, string> = {}, client?: oauth.Client): Promise<Flow> {
    const registered = client ?? (await registerClient());
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const start = new URL(as.authorization_endpoint as string);
    start.search = new URLSearchParams({
      client_id: registered.client_id,
      redirect_uri: redirectUri,
      response_type: "code",
      scope: "openid email profile",
      state,
      nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      ...extra,
    }).toString();
    return { client: registered, verifier, state, nonce, url: start.href };
  }

  /** The relying party's end of the flow: the callback's code exchanged, the ID token checked. */
  async function finish(flow: Flow, landed: string) {
    const params = oauth.validateAuthResponse(as, flow.client, new URL(landed), flow.state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      flow.client,
      oauth.None(),
      params,
      redirectUri,
      flow.verifier,
      insecure,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, flow.client, response, {
      expectedNonce: flow.nonce,
      requireIdToken: true,
    });
    const claims = oauth.getValidatedIdTokenClaims(tokens);
    if (claims === undefined) throw new Error("no ID token");
    return { tokens, claims };
  }

  return { as, registerClient, startFlow, finish };
}
