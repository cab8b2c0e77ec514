import { describe, expect, it } from "vitest";
import { NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

/** An app with one user signed in twice (two sessions, say a laptop and a phone). */
async function twoDevices() {
  const base = testApp().auth.settings;
  const t = testApp(
    {},
    {
      signup: { ...base.signup, mailerAutoconfirm: true },
      sessions: { timeboxMs: 86_400_000, inactivityTimeoutMs: 0, singlePerUser: false },
    },
  );
  await send(t.app, "POST", "/signup", { email: "ann@example.com", password: "secret-pw" });
  const signIn = async () => {
    const res = await send(t.app, "POST", "/token?grant_type=password", {
      email: "ann@example.com",
      password: "secret-pw",
    });
    const body = (await res.json()) as { access_token: string; refresh_token: string };
    return { headers: { authorization: `Bearer ${body.access_token}` }, refreshToken: body.refresh_token };
  };
  const laptop = await signIn();
  t.auth.clock.advance(1000);
  const phone = await signIn();
  return { ...t, laptop, phone };
}

interface SessionJson {
  id: string;
  current: boolean;
  active: boolean;
  created_at: string;
  not_after: string | null;
  refreshed_at: string | null;
  amr: { method: string }[];
}

describe("/user/sessions", () => {
  it("GET lists the caller's sessions, oldest first, the current one marked, no token in sight", async () => {
    const { app, phone, laptop, auth } = await twoDevices();
    const res = await send(app, "GET", "/user/sessions", undefined, phone.headers);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(phone.refreshToken);
    expect(text).not.toContain(laptop.refreshToken);
    const { sessions } = JSON.parse(text) as { sessions: SessionJson[] };
    // The signup's own session, then the laptop, then the phone.
    expect(sessions.map((s) => s.current)).toEqual([false, false, true]);
    expect(sessions[2]).toMatchObject({
      active: true,
      refreshed_at: null,
      amr: [{ method: "password" }],
      created_at: auth.clock.now().toISOString(),
      not_after: new Date(auth.clock.now().getTime() + 86_400_000).toISOString(),
    });
    expect(Object.keys(sessions[2] ?? {}).sort()).toEqual(
      [
        "aal",
        "active",
        "amr",
        "created_at",
        "current",
        "id",
        "not_after",
        "refreshed_at",
        "updated_at",
      ].sort(),
    );
  });

  it("DELETE ends one session: its access token is refused and its refresh token no longer works", async () => {
    const { app, phone, laptop } = await twoDevices();
    const { sessions } = (await (
      await send(app, "GET", "/user/sessions", undefined, phone.headers)
    ).json()) as {
      sessions: SessionJson[];
    };
    const laptopId = sessions[1]?.id ?? "";
    const res = await send(
      app,
      "DELETE",
      `/user/sessions/${laptopId.toUpperCase()}`,
      undefined,
      phone.headers,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    expect((await send(app, "GET", "/user", undefined, laptop.headers)).status).toBe(403);
    const refresh = await send(app, "POST", "/token?grant_type=refresh_token", {
      refresh_token: laptop.refreshToken,
    });
    expect(refresh.status).toBe(400);
    expect((await send(app, "GET", "/user", undefined, phone.headers)).status).toBe(200);
  });

  it("DELETE of an unknown, foreign or malformed id is 404 session_not_found in both shapes", async () => {
    const { app, phone } = await twoDevices();
    for (const id of ["00000000-0000-4000-8000-0000000000ff", "not-a-uuid"]) {
      const legacy = await send(app, "DELETE", `/user/sessions/${id}`, undefined, phone.headers);
      expect(legacy.status).toBe(404);
      expect(await legacy.json()).toEqual({
        code: 404,
        error_code: "session_not_found",
        msg: "Session not found",
      });
      const current = await send(app, "DELETE", `/user/sessions/${id}`, undefined, {
        ...phone.headers,
        ...NEW_API,
      });
      expect(await current.json()).toEqual({ code: "session_not_found", message: "Session not found" });
    }
  });

  it("needs a signed-in user", async () => {
    const { app } = await twoDevices();
    expect((await send(app, "GET", "/user/sessions")).status).toBe(401);
    expect((await send(app, "DELETE", "/user/sessions/00000000-0000-4000-8000-000000000001")).status).toBe(
      401,
    );
  });
});
