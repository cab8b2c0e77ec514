import { describe, expect, it } from "vitest";
import { bearer, NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

const UNKNOWN = "33333333-3333-4333-8333-333333333333";

/** An app (fake WebAuthn) and a user signed up through the API who registered one passkey. */
async function withPasskey(passkeys: { enabled: boolean } = { enabled: true }) {
  const base = testApp().auth.settings;
  const t = testApp(
    {},
    { signup: { ...base.signup, mailerAutoconfirm: true }, passkeys: { ...base.passkeys, enabled: true } },
  );
  const res = await send(t.app, "POST", "/signup", { email: "ann@example.com", password: "secret-pw" });
  const body = (await res.json()) as { access_token: string; user: { id: string } };
  const user = { authorization: `Bearer ${body.access_token}` };
  const options = (await (await send(t.app, "POST", "/passkeys/registration/options", {}, user)).json()) as {
    challenge_id: string;
    options: { challenge: string };
  };
  const credential = { challenge: options.options.challenge, credentialId: "cred" };
  const registered = await send(
    t.app,
    "POST",
    "/passkeys/registration/verify",
    { challenge_id: options.challenge_id, credential },
    user,
  );
  const passkey = (await registered.json()) as { id: string };
  // The admin routes answer whatever the setting: it may be turned off after registration.
  Object.assign(t.auth.settings, { passkeys: { ...t.auth.settings.passkeys, ...passkeys } });
  const admin = await bearer(t.auth, { role: "service_role" });
  return { ...t, userId: body.user.id, passkeyId: passkey.id, user, admin };
}

describe("GET /admin/users/{id}/passkeys", () => {
  it("lists a user's passkeys to an admin, even with passkeys turned off", async () => {
    const { app, userId, passkeyId, admin } = await withPasskey({ enabled: false });
    const res = await send(app, "GET", `/admin/users/${userId}/passkeys`, undefined, admin);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual([
      { id: passkeyId, friendly_name: expect.any(String), created_at: expect.any(String) },
    ]);
    // The ids are matched whatever their case.
    const upper = await send(app, "GET", `/admin/users/${userId.toUpperCase()}/passkeys`, undefined, admin);
    expect(await upper.json()).toHaveLength(1);
  });

  it("refuses no token, a user's token, and an unknown or malformed user", async () => {
    const { app, userId, user, admin } = await withPasskey();
    const path = `/admin/users/${userId}/passkeys`;
    const anonymous = await send(app, "GET", path);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error_code: "no_authorization" });
    const notAdmin = await send(app, "GET", path, undefined, user);
    expect(notAdmin.status).toBe(403);
    expect(await notAdmin.json()).toMatchObject({ error_code: "not_admin" });
    const unknown = await send(app, "GET", `/admin/users/${UNKNOWN}/passkeys`, undefined, admin);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error_code: "user_not_found" });
    const malformed = await send(app, "GET", "/admin/users/nope/passkeys", undefined, {
      ...admin,
      ...NEW_API,
    });
    expect(malformed.status).toBe(404);
    expect(await malformed.json()).toMatchObject({ code: "user_not_found" });
  });
});

describe("DELETE /admin/users/{id}/passkeys/{passkey_id}", () => {
  it("deletes a passkey with 204 and no body; a later list and a second delete no longer find it", async () => {
    const { app, userId, passkeyId, admin, auth } = await withPasskey();
    const path = `/admin/users/${userId}/passkeys/${passkeyId.toUpperCase()}`;
    const deleted = await send(app, "DELETE", path, undefined, admin);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    const listed = await send(app, "GET", `/admin/users/${userId}/passkeys`, undefined, admin);
    expect(await listed.json()).toEqual([]);
    const again = await send(app, "DELETE", path, undefined, admin);
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ error_code: "validation_failed", msg: "Passkey not found" });
    const audit = auth.store.tables.audit.find((e) => e.action === "passkey_deleted");
    expect(audit).toMatchObject({
      actorUsername: "service_role",
      traits: { user_id: userId, passkey_id: passkeyId },
    });
  });

  it("leaves the passkey for a user's token, an unknown user, or another id", async () => {
    const { app, userId, passkeyId, user, admin } = await withPasskey();
    const path = `/admin/users/${userId}/passkeys/${passkeyId}`;
    expect((await send(app, "DELETE", path)).status).toBe(401);
    const notAdmin = await send(app, "DELETE", path, undefined, user);
    expect(notAdmin.status).toBe(403);
    const unknownUser = await send(
      app,
      "DELETE",
      `/admin/users/${UNKNOWN}/passkeys/${passkeyId}`,
      undefined,
      admin,
    );
    expect(unknownUser.status).toBe(404);
    expect(await unknownUser.json()).toMatchObject({ error_code: "user_not_found" });
    for (const other of [UNKNOWN, "not-a-uuid"]) {
      const res = await send(app, "DELETE", `/admin/users/${userId}/passkeys/${other}`, undefined, admin);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error_code: "validation_failed", msg: "Passkey not found" });
    }
    const listed = await send(app, "GET", `/admin/users/${userId}/passkeys`, undefined, admin);
    expect(await listed.json()).toEqual([expect.objectContaining({ id: passkeyId })]);
  });
});
