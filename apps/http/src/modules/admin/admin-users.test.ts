import { describe, expect, it } from "vitest";
import { bearer, NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

async function admin() {
  const t = testApp();
  return { ...t, headers: await bearer(t.auth, { role: "service_role" }) };
}

describe("/admin/users and /invite", () => {
  it("need an admin role: none is 401, another role is 403", async () => {
    const { app, auth } = testApp();
    expect((await send(app, "GET", "/admin/users")).status).toBe(401);
    const user = await bearer(auth, { role: "authenticated", sub: "00000000-0000-4000-8000-000000000001" });
    const res = await send(app, "GET", "/admin/users", undefined, { ...user, ...NEW_API });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  it("create, get, update, list and delete a user", async () => {
    const { app, headers } = await admin();
    const created = await send(
      app,
      "POST",
      "/admin/users",
      { email: "bo@example.com", password: "secret-pw", email_confirm: true, app_metadata: { plan: "pro" } },
      headers,
    );
    expect(created.status).toBe(200);
    const user = (await created.json()) as { id: string; email_confirmed_at: string | null };
    expect(user.email_confirmed_at).toEqual(expect.any(String));

    const got = await send(app, "GET", `/admin/users/${user.id}`, undefined, headers);
    expect(await got.json()).toMatchObject({ email: "bo@example.com", app_metadata: { plan: "pro" } });

    const updated = await send(app, "PUT", `/admin/users/${user.id}`, { user_metadata: { a: 1 } }, headers);
    expect(await updated.json()).toMatchObject({ user_metadata: { a: 1 } });

    const list = await send(app, "GET", "/admin/users?page=1&per_page=10", undefined, headers);
    expect(list.headers.get("x-total-count")).toBe("1");
    expect(list.headers.get("link")).toBe('</admin/users?page=1&per_page=10>; rel="last"');
    expect(await list.json()).toMatchObject({ users: [{ id: user.id }], aud: "authenticated" });

    expect((await send(app, "DELETE", `/admin/users/${user.id}`, {}, headers)).status).toBe(200);
    expect((await send(app, "GET", `/admin/users/${user.id}`, undefined, headers)).status).toBe(404);
  });

  it("soft deletion keeps the user, obfuscated and marked deleted; a second one changes nothing", async () => {
    const { app, headers } = await admin();
    const created = await send(
      app,
      "POST",
      "/admin/users",
      { email: "soft@example.com", phone: "15551234567", password: "secret-pw", user_metadata: { n: 1 } },
      headers,
    );
    const { id } = (await created.json()) as { id: string };
    const soft = await send(app, "DELETE", `/admin/users/${id}`, { should_soft_delete: true }, headers);
    expect(soft.status).toBe(200);
    expect(await soft.json()).toEqual({});
    const got = await send(app, "GET", `/admin/users/${id}`, undefined, headers);
    const user = (await got.json()) as Record<string, unknown>;
    expect(user).toMatchObject({ id, user_metadata: {}, app_metadata: {}, deleted_at: expect.any(String) });
    // The values themselves (SHA-256 based) are checked end to end; the fakes here hash reversibly.
    expect(user.email).not.toBe("soft@example.com");
    expect(user.phone).not.toBe("15551234567");
    const identities = user.identities as { provider: string; id: string; identity_data: unknown }[];
    expect(identities.map((i) => [i.provider, i.identity_data])).toEqual([
      ["email", {}],
      ["phone", {}],
    ]);
    expect(identities.map((i) => i.id)).not.toContain(id);
    const again = await send(app, "DELETE", `/admin/users/${id}`, { should_soft_delete: true }, headers);
    expect(again.status).toBe(200);
    expect(await (await send(app, "GET", `/admin/users/${id}`, undefined, headers)).json()).toEqual(user);
    const missing = "00000000-0000-4000-8000-000000000009";
    const none = await send(app, "DELETE", `/admin/users/${missing}`, { should_soft_delete: true }, headers);
    expect(none.status).toBe(404);
  });

  it("a malformed user id is 404; mistyped fields are 400", async () => {
    const { app, headers } = await admin();
    const bad = await send(app, "GET", "/admin/users/not-a-uuid", undefined, headers);
    expect(bad.status).toBe(404);
    expect(await bad.json()).toMatchObject({ msg: "user_id must be an UUID" });
    const soft = await send(app, "DELETE", "/admin/users/not-a-uuid", { should_soft_delete: "yes" }, headers);
    expect(soft.status).toBe(404);
    const typed = await send(
      app,
      "POST",
      "/admin/users",
      { email: "c@example.com", email_confirm: "yes" },
      headers,
    );
    expect(typed.status).toBe(400);
    expect(await typed.json()).toMatchObject({ msg: "Invalid email_confirm: expected true or false" });
  });

  it("takes JSON null as absent, and an empty string as absent for every field but password", async () => {
    const { app, auth, headers } = await admin();
    const res = await send(
      app,
      "POST",
      "/admin/users",
      {
        id: "",
        aud: "",
        role: null,
        email: "",
        phone: "+15550101",
        password: null,
        password_hash: "",
        email_confirm: null,
        user_metadata: null,
        app_metadata: null,
        ban_duration: "",
      },
      headers,
    );
    expect(res.status).toBe(200);
    const user = (await res.json()) as Record<string, unknown>;
    expect(user).toMatchObject({
      aud: "authenticated",
      role: "authenticated",
      email: "",
      phone: "15550101",
      user_metadata: {},
      app_metadata: { provider: "phone", providers: ["phone"] },
    });
    expect(user.banned_until).toBeUndefined();
    expect(auth.store.tables.users.get(user.id as string)?.encryptedPassword).toBeNull();
  });

  it("keeps an empty password: none on create, too short on update", async () => {
    const { app, auth, headers } = await admin();
    const created = await send(
      app,
      "POST",
      "/admin/users",
      { email: "e@example.com", password: "" },
      headers,
    );
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    expect(auth.store.tables.users.get(id)?.encryptedPassword).toBeNull();
    const updated = await send(app, "PUT", `/admin/users/${id}`, { password: "" }, headers);
    expect(updated.status).toBe(422);
    expect(await updated.json()).toMatchObject({ error_code: "weak_password" });
  });

  it("refuses a password with a password hash, even an empty one", async () => {
    const { app, auth, headers } = await admin();
    for (const password of ["secret-pw", ""]) {
      const body = { email: "h@example.com", password, password_hash: "bcrypt$x" };
      const res = await send(app, "POST", "/admin/users", body, headers);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        error_code: "validation_failed",
        msg: "Only a password or a password hash should be provided",
      });
    }
    expect(auth.store.tables.users.size).toBe(0);
  });

  it.each([
    ["POST", { email: 42 }, "Invalid email: expected a string"],
    ["POST", { email: "a@example.com", role: 7 }, "Invalid role: expected a string"],
    ["POST", { email: "a@example.com", password_hash: false }, "Invalid password_hash: expected a string"],
    ["POST", { email: "a@example.com", phone_confirm: 1 }, "Invalid phone_confirm: expected true or false"],
    ["POST", { email: "a@example.com", user_metadata: ["x"] }, "Invalid user_metadata: expected an object"],
    ["PUT", { app_metadata: "x" }, "Invalid app_metadata: expected an object"],
    ["PUT", { ban_duration: 3600 }, "Invalid ban_duration: expected a string"],
  ])("%s with a mistyped field %j is 400, writing nothing", async (method, body, msg) => {
    const { app, auth, headers } = await admin();
    const created = await send(app, "POST", "/admin/users", { email: "t@example.com" }, headers);
    const { id } = (await created.json()) as { id: string };
    const before = auth.store.tables.users.get(id);
    const path = method === "PUT" ? `/admin/users/${id}` : "/admin/users";
    const res = await send(app, method, path, body, headers);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error_code: "validation_failed", msg });
    expect([...auth.store.tables.users.values()]).toEqual([before]);
  });

  it("a bad page number is 400 Bad Pagination Parameters", async () => {
    const { app, headers } = await admin();
    const res = await send(app, "GET", "/admin/users?page=two", undefined, headers);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ msg: "Bad Pagination Parameters" });
  });

  it("POST /invite mails an invite and answers the invited user", async () => {
    const { app, auth, headers } = await admin();
    const res = await send(
      app,
      "POST",
      "/invite",
      { email: "new@example.com", data: { team: "a" } },
      headers,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ email: "new@example.com", user_metadata: { team: "a" } });
    expect(auth.mailer.sent.map((m) => [m.kind, m.to])).toEqual([["invite", "new@example.com"]]);
  });
});
