import { describe, expect, it } from "vitest";
import { NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

/** An app and the access token of a user signed up (autoconfirmed) through the API. */
async function signedIn() {
  const t = testApp({}, { signup: { ...testApp().auth.settings.signup, mailerAutoconfirm: true } });
  const res = await send(t.app, "POST", "/signup", { email: "ann@example.com", password: "secret-pw" });
  const { access_token } = (await res.json()) as { access_token: string };
  return { ...t, headers: { authorization: `Bearer ${access_token}` } };
}

describe("/user, /logout, /reauthenticate", () => {
  it("GET /user answers the signed-in user", async () => {
    const { app, headers } = await signedIn();
    const res = await send(app, "GET", "/user", undefined, headers);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ email: "ann@example.com", aud: "authenticated" });
  });

  it("refuses a token of another audience: GET /user 400 validation_failed, the others 403 unexpected_audience", async () => {
    const { app, auth, headers } = await signedIn();
    const mine = await auth.signer.verify(headers.authorization.slice("Bearer ".length));
    const other = await auth.signer.sign({ ...mine, aud: "other-app" } as never);
    const foreign = { authorization: `Bearer ${other}` };
    const get = await send(app, "GET", "/user", undefined, foreign);
    expect(get.status).toBe(400);
    expect(await get.json()).toMatchObject({
      error_code: "validation_failed",
      msg: "Token audience doesn't match request audience",
    });
    const put = await send(app, "PUT", "/user", { data: { theme: "dark" } }, foreign);
    expect(put.status).toBe(403);
    expect(await put.json()).toMatchObject({ error_code: "unexpected_audience" });
    const reauth = await send(app, "GET", "/reauthenticate", undefined, foreign);
    expect(reauth.status).toBe(403);
    // The request names its audience with X-JWT-AUD: then that token fits, and ours does not.
    const named = await send(app, "GET", "/user", undefined, { ...foreign, "x-jwt-aud": "other-app" });
    expect(named.status).toBe(200);
    const ours = await send(app, "GET", "/user", undefined, { ...headers, "x-jwt-aud": "other-app" });
    expect(ours.status).toBe(400);
    expect((await send(app, "GET", "/user", undefined, headers)).status).toBe(200);
  });

  it("without a token is 401 in both shapes", async () => {
    const { app } = testApp();
    const legacy = await send(app, "GET", "/user");
    expect(legacy.status).toBe(401);
    expect(await legacy.json()).toMatchObject({ code: 401, error_code: expect.any(String) });
    const dated = await send(app, "GET", "/user", undefined, NEW_API);
    expect(dated.status).toBe(401);
    expect(await dated.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  it("PUT /user merges metadata, and null data is accepted as no change", async () => {
    const { app, headers } = await signedIn();
    const res = await send(app, "PUT", "/user", { data: { theme: "dark" } }, headers);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ user_metadata: { theme: "dark" } });
    const again = await send(app, "PUT", "/user", { data: null }, headers);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ user_metadata: { theme: "dark" } });
  });

  it("PUT /user with a mistyped field is 400 naming it", async () => {
    const { app, headers } = await signedIn();
    const res = await send(app, "PUT", "/user", { password: ["x"] }, headers);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ msg: "Invalid password: expected a string" });
  });

  it("GET /reauthenticate mails a nonce", async () => {
    const { app, auth, headers } = await signedIn();
    const res = await send(app, "GET", "/reauthenticate", undefined, headers);
    expect(res.status).toBe(200);
    expect(auth.mailer.sent.map((m) => m.kind)).toContain("reauthentication");
  });

  it("POST /logout is 204 and the token stops working; an unknown scope is 400", async () => {
    const { app, headers } = await signedIn();
    const bad = await send(app, "POST", "/logout?scope=everyone", undefined, headers);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ msg: 'Unsupported logout scope "everyone"' });
    const res = await send(app, "POST", "/logout", undefined, headers);
    expect(res.status).toBe(204);
    expect((await send(app, "GET", "/user", undefined, headers)).status).toBe(403);
  });
});
