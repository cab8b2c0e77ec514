import { decodeJwt } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieJar } from "./support/openid-provider.js";
import { atIdp, postToAcs, type SsoRig, startSsoRig } from "./support/saml.js";

/**
 * SAML single sign-on from the hosted sign-in page: the company's domain typed on the page, the
 * identity provider's answer posted to the ACS, the browser back on the page's return signed in, then
 * consent and the client's code, exchanged with its PKCE verifier. Plain requests: the SAML test
 * identity provider answers with a form, not a page a browser would need.
 */
const REDIRECT = "http://127.0.0.1:8123/callback";
let rig: SsoRig | undefined;

beforeAll(async () => {
  rig = await startSsoRig(
    {
      AUTHSVC_OAUTH_SERVER_ENABLED: "true",
      AUTHSVC_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION: "true",
      AUTHSVC_OAUTH_SERVER_AUTHORIZATION_PATH: "",
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
    },
    ["acme.example"],
  );
}, 120_000);

afterAll(async () => {
  await rig?.close();
});

describe("SSO on the hosted sign-in page", () => {
  it("signs in through the domain's identity provider, comes back to consent, and the code is the client's", async () => {
    const { server, idp } = rig as SsoRig;
    const jar = cookieJar();
    // The public address (API_EXTERNAL_URL) is the server's own here.
    const local = (url: string) => {
      const u = new URL(url);
      return `${server.url}${u.pathname}${u.search}`;
    };
    const get = async (url: string) => {
      const res = await fetch(local(url), { redirect: "manual", headers: { cookie: jar.header() } });
      jar.keep(res);
      return res;
    };
    const post = async (path: string, fields: Record<string, string>) => {
      const res = await fetch(`${server.url}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
        body: new URLSearchParams(fields),
      });
      jar.keep(res);
      return res;
    };
    const registered = await fetch(`${server.url}/oauth/clients/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "SSO app",
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: "none",
      }),
    });
    const { client_id } = (await registered.json()) as { client_id: string };
    const verifier = oauth.generateRandomCodeVerifier();
    const authorize = await get(
      `${server.url}/oauth/authorize?${new URLSearchParams({
        client_id,
        redirect_uri: REDIRECT,
        response_type: "code",
        scope: "email",
        state: "s1",
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
      })}`,
    );
    const signIn = await get(authorize.headers.get("location") as string);
    const page = await signIn.text();
    expect(page).toContain('action="/oauth/consent/sso"');
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? "";
    const started = await post("/oauth/consent/sso", {
      authorization_id: field("authorization_id"),
      csrf: field("csrf"),
      locale: "en",
      domain: "ACME.example",
    });
    expect(started.status).toBe(303);
    const toIdp = started.headers.get("location") as string;
    expect(toIdp.startsWith(idp.ssoUrl)).toBe(true);
    idp.answer = { nameId: "grace@acme.example", attributes: {} };
    const back = await postToAcs(server, (await atIdp(toIdp)).fields);
    expect(back.status, back.location).toBe(302);
    expect(new URL(back.location).pathname).toBe("/oauth/consent/provider-return");
    // Back on the page: signed in as the identity provider said, asked to consent.
    const consent = await get(back.location);
    expect(consent.status).toBe(200);
    const form = await consent.text();
    expect(form).toContain("grace@acme.example");
    const proof = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(form)?.[1] ?? "";
    const decided = await post("/oauth/consent/decision", {
      authorization_id: proof("authorization_id"),
      csrf: proof("csrf"),
      locale: "en",
      proof: proof("proof"),
      action: "approve",
    });
    expect(decided.status).toBe(303);
    const landing = new URL(decided.headers.get("location") as string);
    expect(`${landing.origin}${landing.pathname}`).toBe(REDIRECT);
    const token = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: landing.searchParams.get("code") as string,
        redirect_uri: REDIRECT,
        client_id,
        code_verifier: verifier,
      }),
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const claims = decodeJwt(access_token) as { email: string; amr: { method: string }[] };
    expect(claims.email).toBe("grace@acme.example");
    expect(claims.amr.map((m) => m.method)).toContain("sso/saml");
  });
});
