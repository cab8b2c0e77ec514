import { describe, expect, it } from "vitest";
import { send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

/** An app with an autoconfirmed user signed in through the API. */
async function signedIn() {
  const t = testApp({}, { signup: { ...testApp().auth.settings.signup, mailerAutoconfirm: true } });
  const res = await send(t.app, "POST", "/signup", { email: "ann@example.com", password: "secret-pw" });
  const body = (await res.json()) as { access_token: string };
  return { ...t, headers: { authorization: `Bearer ${body.access_token}` } };
}

describe("JSON request bodies with lone surrogates", () => {
  it("POST /factors with a lone surrogate in issuer is 400 validation_failed, not a 500", async () => {
    const { app, headers } = await signedIn();
    const res = await send(app, "POST", "/factors", { factor_type: "totp", issuer: "Acme\ud800" }, headers);
    expect(res.status, await res.clone().text()).toBe(400);
    expect(await res.json()).toMatchObject({
      error_code: "validation_failed",
      msg: "Invalid issuer: expected text without lone surrogates",
    });
    const fine = await send(app, "POST", "/factors", { factor_type: "totp", issuer: "Acme 😀" }, headers);
    expect(fine.status).toBe(200);
  });

  it("are refused in any field, nested value or key, before a use case runs", async () => {
    const { app, auth } = testApp();
    const bodies: [Record<string, unknown>, string][] = [
      [{ email: "bob@example.com", password: "pw\udc00-secret" }, "password"],
      [{ email: "bob@example.com", password: "secret-pw", data: { nick: ["ok", "\ud83d"] } }, "data.nick.1"],
      [{ email: "bob@example.com", password: "secret-pw", data: { "k\ud800": 1 } }, "data"],
    ];
    for (const [body, field] of bodies) {
      const res = await send(app, "POST", "/signup", body);
      expect(res.status, await res.clone().text()).toBe(400);
      expect(await res.json()).toMatchObject({
        error_code: "validation_failed",
        msg: `Invalid ${field}: expected text without lone surrogates`,
      });
    }
    expect(await auth.store.users.findByEmail("bob@example.com")).toBeNull();
  });
});
