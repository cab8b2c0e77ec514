import { describe, expect, it } from "vitest";
import { NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

const VERIFIER = "a-plain-verifier-of-at-least-forty-three-characters";
const PKCE = { code_challenge: VERIFIER, code_challenge_method: "plain" };

/** An app where ann@example.com signed up in a PKCE flow; `link` is her mailed confirmation link. */
async function signedUpWithPkce() {
  const t = testApp();
  const res = await send(t.app, "POST", "/signup?redirect_to=http://localhost:3000/welcome", {
    email: "ann@example.com",
    password: "secret-pw",
    ...PKCE,
  });
  expect(res.status).toBe(200);
  const url = t.auth.mailer.sent[0]?.confirmationUrl;
  if (url === undefined) throw new Error("no confirmation mail");
  return { ...t, link: new URL(url) };
}

/** Follows the link: the 303 lands on the redirect with `?code=`. */
async function codeOf(app: ReturnType<typeof testApp>["app"], link: URL) {
  const res = await app.request(`${link.pathname}${link.search}`);
  expect(res.status).toBe(303);
  const location = new URL(res.headers.get("location") ?? "");
  expect(`${location.origin}${location.pathname}`).toBe("http://localhost:3000/welcome");
  return location.searchParams.get("code") ?? "";
}

describe("PKCE through /verify and POST /token?grant_type=pkce", () => {
  it("a PKCE link lands with ?code=, which the verifier exchanges once for a session", async () => {
    const { app, link } = await signedUpWithPkce();
    expect(link.searchParams.get("token")).toMatch(/^pkce_/);
    const code = await codeOf(app, link);
    const body = { auth_code: code, code_verifier: VERIFIER };
    const res = await send(app, "POST", "/token?grant_type=pkce", body);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      token_type: "bearer",
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      user: { email: "ann@example.com", email_confirmed_at: expect.any(String) },
    });
    const again = await send(app, "POST", "/token?grant_type=pkce", body, NEW_API);
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({
      code: "flow_state_not_found",
      message: "invalid flow state, no valid flow state found",
    });
  });

  it("a wrong verifier is 400 bad_code_verifier, an expired code 422 flow_state_expired", async () => {
    const { app, auth, link } = await signedUpWithPkce();
    const code = await codeOf(app, link);
    const wrong = await send(app, "POST", "/token?grant_type=pkce", {
      auth_code: code,
      code_verifier: `${VERIFIER}x`,
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error_code: "bad_code_verifier" });
    auth.clock.advance(301_000);
    const late = await send(app, "POST", "/token?grant_type=pkce", {
      auth_code: code,
      code_verifier: VERIFIER,
    });
    expect(late.status).toBe(422);
    expect(await late.json()).toMatchObject({ error_code: "flow_state_expired" });
  });

  it("a missing code or verifier is 400 validation_failed", async () => {
    const { app } = testApp();
    const res = await send(app, "POST", "/token?grant_type=pkce", { auth_code: "x" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error_code: "validation_failed",
      msg: "invalid request: both auth code and code verifier should be non-empty",
    });
  });

  it.each([
    ["/signup", { email: "bo@example.com", password: "secret-pw" }],
    ["/otp", { email: "bo@example.com" }],
    ["/magiclink", { email: "bo@example.com" }],
    ["/recover", { email: "bo@example.com" }],
    ["/resend", { type: "signup", email: "bo@example.com" }],
  ])("%s refuses half a PKCE challenge or a short one with 400", async (path, body) => {
    const { app, auth } = testApp();
    const half = await send(app, "POST", path, { ...body, code_challenge: VERIFIER });
    expect(half.status).toBe(400);
    expect(await half.json()).toMatchObject({
      msg: "PKCE flow requires code_challenge_method and code_challenge",
    });
    const short = await send(app, "POST", path, {
      ...body,
      code_challenge: "abc",
      code_challenge_method: "s256",
    });
    expect(short.status).toBe(400);
    expect(auth.mailer.sent).toEqual([]);
  });

  it("answers a PKCE link error in the query as well as the fragment", async () => {
    const { app, link } = await signedUpWithPkce();
    await codeOf(app, link);
    const reused = await app.request(`${link.pathname}${link.search}`);
    const location = new URL(reused.headers.get("location") ?? "");
    expect(location.searchParams.get("error_code")).toBe("otp_expired");
    expect(new URLSearchParams(location.hash.slice(1)).get("error_code")).toBe("otp_expired");
  });
});
