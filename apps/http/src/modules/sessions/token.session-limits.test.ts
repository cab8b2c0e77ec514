import { describe, expect, it } from "vitest";
import { NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

async function signedIn(sessions: {
  timeboxMs: number;
  inactivityTimeoutMs: number;
  singlePerUser: boolean;
}) {
  const base = testApp().auth.settings;
  const t = testApp({}, { signup: { ...base.signup, mailerAutoconfirm: true }, sessions });
  const res = await send(t.app, "POST", "/signup", { email: "ann@example.com", password: "secret-pw" });
  const { refresh_token } = (await res.json()) as { refresh_token: string };
  const refresh = (token: string, headers: Record<string, string> = {}) =>
    send(t.app, "POST", "/token?grant_type=refresh_token", { refresh_token: token }, headers);
  return { ...t, refreshToken: refresh_token, refresh };
}

describe("POST /token?grant_type=refresh_token with session controls", () => {
  it("answers 400 session_expired after the timebox, in both shapes", async () => {
    const { auth, refreshToken, refresh } = await signedIn({
      timeboxMs: 60_000,
      inactivityTimeoutMs: 0,
      singlePerUser: false,
    });
    auth.clock.advance(60_001);
    const legacy = await refresh(refreshToken);
    expect(legacy.status).toBe(400);
    expect(legacy.headers.get("x-sb-error-code")).toBe("session_expired");
    expect(await legacy.json()).toEqual({
      code: 400,
      error_code: "session_expired",
      msg: "Invalid Refresh Token: Session Expired",
    });
    const current = await refresh(refreshToken, NEW_API);
    expect(await current.json()).toEqual({
      code: "session_expired",
      message: "Invalid Refresh Token: Session Expired",
    });
  });

  it("answers 400 session_expired (Inactivity) after the inactivity timeout", async () => {
    const { auth, refreshToken, refresh } = await signedIn({
      timeboxMs: 0,
      inactivityTimeoutMs: 30_000,
      singlePerUser: false,
    });
    auth.clock.advance(30_001);
    const res = await refresh(refreshToken);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ msg: "Invalid Refresh Token: Session Expired (Inactivity)" });
  });
});
