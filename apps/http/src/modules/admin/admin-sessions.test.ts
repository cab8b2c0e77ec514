import { describe, expect, it } from "vitest";
import { bearer, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

/** An app with one user signed in twice, and an admin's headers. */
async function twoSessions() {
  const base = testApp().auth.settings;
  const t = testApp({}, { signup: { ...base.signup, mailerAutoconfirm: true } });
  const signedUp = await send(t.app, "POST", "/signup", { email: "ann@example.com", password: "secret-pw" });
  const { user } = (await signedUp.json()) as { user: { id: string } };
  const signIn = async () => {
    const res = await send(t.app, "POST", "/token?grant_type=password", {
      email: "ann@example.com",
      password: "secret-pw",
    });
    const body = (await res.json()) as { access_token: string; refresh_token: string };
    const listed = await send(t.app, "GET", "/user/sessions", undefined, {
      authorization: `Bearer ${body.access_token}`,
    });
    const { sessions } = (await listed.json()) as { sessions: { id: string; current: boolean }[] };
    const sessionId = sessions.find((session) => session.current)?.id ?? "";
    return { refreshToken: body.refresh_token, sessionId };
  };
  const laptop = await signIn();
  const phone = await signIn();
  const refreshes = async (refreshToken: string) =>
    (await send(t.app, "POST", "/token?grant_type=refresh_token", { refresh_token: refreshToken })).status;
  const headers = await bearer(t.auth, { role: "service_role" });
  return { ...t, userId: user.id, laptop, phone, refreshes, headers };
}

describe("DELETE /admin/users/{user_id}/sessions", () => {
  it("ends one session: its refresh token is refused, the other's still refreshes", async () => {
    const { app, userId, laptop, phone, refreshes, headers } = await twoSessions();
    const path = `/admin/users/${userId}/sessions/${laptop.sessionId}`;
    const res = await send(app, "DELETE", path, undefined, headers);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    expect(await refreshes(laptop.refreshToken)).toBe(400);
    expect(await refreshes(phone.refreshToken)).toBe(200);
  });

  it("ends every session of the user", async () => {
    const { app, userId, laptop, phone, refreshes, headers } = await twoSessions();
    expect((await send(app, "DELETE", `/admin/users/${userId}/sessions`, undefined, headers)).status).toBe(
      200,
    );
    expect(await refreshes(laptop.refreshToken)).toBe(400);
    expect(await refreshes(phone.refreshToken)).toBe(400);
  });

  it("answers 404 for another user's or an unknown session, and for an unknown user", async () => {
    const { app, laptop, refreshes, headers } = await twoSessions();
    const other = "11111111-1111-4111-8111-111111111111";
    const wrongUser = await send(
      app,
      "DELETE",
      `/admin/users/${other}/sessions/${laptop.sessionId}`,
      undefined,
      headers,
    );
    expect(wrongUser.status).toBe(404);
    const unknown = await send(app, "DELETE", `/admin/users/${other}/sessions`, undefined, headers);
    expect(((await unknown.json()) as { error_code: string }).error_code).toBe("user_not_found");
    expect(await refreshes(laptop.refreshToken)).toBe(200);
  });

  it("is for admins only", async () => {
    const { app, userId, laptop, refreshes } = await twoSessions();
    const res = await send(app, "DELETE", `/admin/users/${userId}/sessions`);
    expect(res.status).toBe(401);
    expect(await refreshes(laptop.refreshToken)).toBe(200);
  });
});
