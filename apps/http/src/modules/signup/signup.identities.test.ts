import type { AuthSettings } from "@authsvc/core";
import { describe, expect, it } from "vitest";
import { send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

type Answer = { id: string; identities: Record<string, unknown>[] } & Record<string, unknown>;

function setUp(signup: Partial<AuthSettings["signup"]> = {}) {
  const { app, auth } = testApp({}, { signup: { ...testApp().auth.settings.signup, ...signup } });
  const signUp = async (body: Record<string, unknown>) => {
    const res = await send(app, "POST", "/signup", { password: "secret-pw", ...body });
    expect(res.status).toBe(200);
    return (await res.json()) as Answer;
  };
  // The owner confirms the address (as `/verify` would), so the address is taken for good.
  const confirm = (email: string) => {
    for (const [id, user] of auth.store.tables.users) {
      if (user.email === email) auth.store.tables.users.set(id, { ...user, emailConfirmedAt: new Date() });
    }
  };
  return { signUp, confirm, auth };
}

describe("POST /signup identities", () => {
  it("a new user's answer carries its email identity, as stored", async () => {
    const { signUp, auth } = setUp();
    const user = await signUp({ email: "ann@example.com" });
    const [stored] = auth.store.tables.identities.values();
    expect(user.identities).toEqual([
      {
        identity_id: stored?.id,
        id: user.id,
        user_id: user.id,
        provider: "email",
        email: "ann@example.com",
        identity_data: {
          sub: user.id,
          email: "ann@example.com",
          email_verified: false,
          phone_verified: false,
        },
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
  });

  it("a new phone user's answer carries its phone identity", async () => {
    const { signUp } = setUp();
    const user = await signUp({ phone: "+1 555 000 1234" });
    expect(user.identities).toMatchObject([
      { provider: "phone", id: user.id, identity_data: { phone: "15550001234", phone_verified: false } },
    ]);
  });

  it("an address already confirmed answers identities [] (the reference's sign for 'already registered')", async () => {
    const { signUp, confirm } = setUp();
    await signUp({ email: "bo@example.com" });
    confirm("bo@example.com");
    const again = await signUp({ email: "bo@example.com" });
    expect(again.identities).toEqual([]);
  });

  it("an owner who never confirmed is answered as a new user, with an identity of the answered id", async () => {
    const { signUp } = setUp();
    const first = await signUp({ email: "cy@example.com" });
    const again = await signUp({ email: "cy@example.com" });
    expect(again.id).not.toBe(first.id);
    expect(again.identities).toMatchObject([{ provider: "email", id: again.id, user_id: again.id }]);
  });

  it("with SECURITY_SIGNUP_HIDE_EXISTING a new and a taken address get alike answers, identities []", async () => {
    const { signUp, confirm } = setUp({ hideExisting: true });
    const fresh = await signUp({ email: "di@example.com" });
    confirm("di@example.com");
    const taken = await signUp({ email: "di@example.com" });
    expect(fresh.identities).toEqual([]);
    expect(taken.identities).toEqual([]);
    expect(Object.keys(taken).sort()).toEqual(Object.keys(fresh).sort());
  });
});
