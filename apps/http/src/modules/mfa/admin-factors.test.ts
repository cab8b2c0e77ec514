import { describe, expect, it } from "vitest";
import { bearer, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

/** An app and a user signed up (autoconfirmed) through the API. */
async function signedIn() {
  const t = testApp({}, { signup: { ...testApp().auth.settings.signup, mailerAutoconfirm: true } });
  const res = await send(t.app, "POST", "/signup", { email: "ann@example.com", password: "secret-pw" });
  const body = (await res.json()) as { access_token: string; user: { id: string } };
  return { ...t, userId: body.user.id, headers: { authorization: `Bearer ${body.access_token}` } };
}

type Json = Record<string, unknown>;

describe("/admin/users/{id}/factors", () => {
  it("lists, updates and deletes a user's factors for an admin only", async () => {
    const { app, auth, userId, headers } = await signedIn();
    const enrolled = (await (
      await send(app, "POST", "/factors", { factor_type: "totp" }, headers)
    ).json()) as Json;
    const admin = await bearer(auth, { role: "service_role" });
    const list = await send(app, "GET", `/admin/users/${userId}/factors`, undefined, admin);
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual([expect.objectContaining({ id: enrolled.id, status: "unverified" })]);
    expect((await send(app, "GET", `/admin/users/${userId}/factors`, undefined, headers)).status).toBe(403);
    const path = `/admin/users/${userId}/factors/${enrolled.id}`;
    const put = await send(app, "PUT", path, { friendly_name: "work" }, admin);
    expect(await put.json()).toMatchObject({ id: enrolled.id, friendly_name: "work" });
    const del = await send(app, "DELETE", path, undefined, admin);
    expect(await del.json()).toMatchObject({ id: enrolled.id });
    expect(await (await send(app, "GET", `/admin/users/${userId}/factors`, undefined, admin)).json()).toEqual(
      [],
    );
    const unknownUser = await send(
      app,
      "GET",
      "/admin/users/33333333-3333-4333-8333-333333333333/factors",
      undefined,
      admin,
    );
    expect(unknownUser.status).toBe(404);
    expect(await unknownUser.json()).toMatchObject({ error_code: "user_not_found" });
    const badUser = await send(app, "GET", "/admin/users/nope/factors", undefined, admin);
    expect(badUser.status).toBe(404);
  });
});
