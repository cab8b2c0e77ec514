import { argon2Hasher } from "@authsvc/adapters";
import { fakeDeps } from "@authsvc/core/testing";
import { describe, expect, it } from "vitest";
import { bearer, NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

/** `password_hash` on the admin user endpoints, with the production hasher and its cost limits. */
async function admin() {
  const auth = { ...fakeDeps(), hasher: argon2Hasher() };
  const { app } = testApp({ auth });
  return { app, auth, headers: { ...(await bearer(auth, { role: "service_role" })), ...NEW_API } };
}

const SALT_AND_DIGEST = "$c29tZXNhbHRzb21lc2FsdA$3q2+7w3q2+7w3q2+7w3q2+7w3q2+7w3q2+7w3q2+7w";
const BCRYPT_TAIL = "$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy";
const refusal = { code: "validation_failed", message: "Invalid password hash format" };

describe("admin password_hash cost limits", () => {
  it("refuses, at creation, argon2 and bcrypt hashes that cost more than authsvc computes", async () => {
    const { app, headers } = await admin();
    for (const [i, password_hash] of [
      `$argon2id$v=19$m=1048576,t=20,p=16${SALT_AND_DIGEST}`,
      `$argon2id$v=19$m=524288,t=1,p=1${SALT_AND_DIGEST}`,
      `$argon2i$v=19$m=65536,t=20,p=1${SALT_AND_DIGEST}`,
      `$2a$16${BCRYPT_TAIL}`,
    ].entries()) {
      const res = await send(
        app,
        "POST",
        "/admin/users",
        { email: `h${i}@example.com`, password_hash },
        headers,
      );
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(refusal);
    }
    const listed = await send(app, "GET", "/admin/users", undefined, headers);
    expect(((await listed.json()) as { users: unknown[] }).users).toEqual([]);
  });

  it("refuses such a hash on update, and keeps the password the user had", async () => {
    const { app, headers, auth } = await admin();
    const hash = `$argon2id$v=19$m=65536,t=3,p=4${SALT_AND_DIGEST}`;
    const created = await send(
      app,
      "POST",
      "/admin/users",
      { email: "u@example.com", password_hash: hash },
      headers,
    );
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    const res = await send(
      app,
      "PUT",
      `/admin/users/${id}`,
      { password_hash: `$argon2id$v=19$m=1048576,t=20,p=16${SALT_AND_DIGEST}` },
      headers,
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(refusal);
    expect((await auth.store.users.findById(id))?.encryptedPassword).toBe(hash);
  });

  it("a stored hash beyond the limits is never computed: the sign-in is a wrong password", async () => {
    const { app, headers, auth } = await admin();
    const created = await send(
      app,
      "POST",
      "/admin/users",
      { email: "heavy@example.com", password: "a-long-enough-password", email_confirm: true },
      headers,
    );
    const { id } = (await created.json()) as { id: string };
    const user = await auth.store.users.findById(id);
    // As an import from before the limits, or a hand-written row, could have left it.
    const hostile = `$argon2id$v=19$m=1048576,t=20,p=16${SALT_AND_DIGEST}`;
    await auth.store.users.update({ ...(user as NonNullable<typeof user>), encryptedPassword: hostile });
    // Computed, this hash would take gigabytes and over a minute: the test's timeout would end it.
    const res = await send(app, "POST", "/token?grant_type=password", {
      email: "heavy@example.com",
      password: "a-long-enough-password",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error_code: "invalid_credentials" });
    expect((await auth.store.users.findById(id))?.encryptedPassword).toBe(hostile);
  });

  it("a weaker argon2id hash within the limits signs in and is rehashed with today's parameters", async () => {
    const { app, headers, auth } = await admin();
    const weaker = await argon2Hasher({ memoryCost: 8192, timeCost: 1 }).hash("an old password");
    const created = await send(
      app,
      "POST",
      "/admin/users",
      { email: "old@example.com", password_hash: weaker, email_confirm: true },
      headers,
    );
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    const wrong = await send(app, "POST", "/token?grant_type=password", {
      email: "old@example.com",
      password: "not the password",
    });
    expect(wrong.status).toBe(400);
    expect((await auth.store.users.findById(id))?.encryptedPassword).toBe(weaker);
    const signedIn = await send(app, "POST", "/token?grant_type=password", {
      email: "old@example.com",
      password: "an old password",
    });
    expect(signedIn.status).toBe(200);
    expect((await auth.store.users.findById(id))?.encryptedPassword).toMatch(
      /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/,
    );
  });
});
