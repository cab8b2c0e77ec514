import { describe, expect, it } from "vitest";
import { NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

/** An app where ann@example.com signed up and was mailed her confirmation. */
async function signedUp() {
  const t = testApp();
  await send(t.app, "POST", "/signup", { email: "ann@example.com", password: "secret-pw" });
  const mail = t.auth.mailer.sent[0];
  if (mail?.token === undefined || mail.confirmationUrl === undefined)
    throw new Error("no confirmation mail");
  return { ...t, code: mail.token, link: new URL(mail.confirmationUrl) };
}

describe("POST /verify", () => {
  it("the mailed code answers a session with the verification type", async () => {
    const { app, code } = await signedUp();
    const res = await send(app, "POST", "/verify", { type: "signup", email: "ann@example.com", token: code });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      token_type: "bearer",
      type: "signup",
      user: { email: "ann@example.com" },
    });
  });

  it("a wrong code is 403 otp_expired in both shapes", async () => {
    const { app } = await signedUp();
    const body = { type: "signup", email: "ann@example.com", token: "000000" };
    const legacy = await send(app, "POST", "/verify", body);
    expect(legacy.status).toBe(403);
    expect(await legacy.json()).toMatchObject({ code: 403, error_code: "otp_expired" });
    const dated = await send(app, "POST", "/verify", body, NEW_API);
    expect(await dated.json()).toMatchObject({ code: "otp_expired", message: expect.any(String) });
  });

  it("an unknown type is 400 listing the types", async () => {
    const { app } = testApp();
    const res = await send(app, "POST", "/verify", { type: "telegram", token: "1" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      msg: "Verify requires a verification type of signup, invite, magiclink, recovery, email_change, email, sms, phone_change",
    });
  });
});

describe("GET /verify", () => {
  it("the mailed link redirects to the site with the session in the fragment", async () => {
    const { app, link } = await signedUp();
    const res = await app.request(`${link.pathname}${link.search}`);
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location") ?? "");
    expect(location.origin).toBe("http://localhost:3000");
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get("type")).toBe("signup");
    expect(fragment.get("access_token")).toEqual(expect.any(String));
  });

  it("a used link redirects to the site with the error, never elsewhere", async () => {
    const { app, link } = await signedUp();
    await app.request(`${link.pathname}${link.search}`);
    const res = await app.request(`${link.pathname}${link.search}&redirect_to=https://evil.example.com/`);
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location") ?? "");
    expect(location.origin).toBe("http://localhost:3000");
    expect(new URLSearchParams(location.hash.slice(1)).get("error_code")).toBe("otp_expired");
  });

  it("a link without a token redirects to the site with a 400-class error", async () => {
    const { app } = await signedUp();
    const res = await app.request("/verify?type=signup");
    expect(res.status).toBe(303);
    const fragment = new URLSearchParams(new URL(res.headers.get("location") ?? "").hash.slice(1));
    expect(Object.fromEntries(fragment)).toMatchObject({
      error: "invalid_request",
      error_code: "validation_failed",
      error_description: "Verify requires a token",
    });
  });
});
