import { failures } from "@authsvc/core";
import { err, ok } from "@authsvc/core/kernel";
import { defaultAuthSettings, fakeHooks } from "@authsvc/core/testing";
import { describe, expect, it } from "vitest";
import { bearer, send } from "../../testing/requests.js";
import { inMemoryTelemetry } from "../../testing/telemetry.js";
import { testApp } from "../../testing/test-app.js";
import { httpTelemetry } from "./http-middleware.js";
import { observeHasher, observeHooks, observeMailer, observeSms } from "./observe-ports.js";
import { observeStore } from "./observe-store.js";

/** The in-process app over fake ports, observed the way the composition root observes the real ones. */
function observedApp() {
  const t = inMemoryTelemetry();
  const o = { tracer: t.tracer, instruments: t.instruments };
  const signup = { ...defaultAuthSettings().signup, mailerAutoconfirm: true };
  const base = testApp({}, { signup });
  const auth = {
    ...base.auth,
    store: observeStore(base.auth.store, { ...o, inFlight: t.inFlight, dbSystem: "postgresql" }),
    hasher: observeHasher(base.auth.hasher, o),
    mailer: observeMailer(base.auth.mailer, o),
    sms: observeSms(base.auth.sms, o),
  };
  const { app } = testApp({ auth, telemetry: httpTelemetry(o) });
  return { app, auth, ...t };
}

describe("request spans", () => {
  it("are named by the parametrised route, carry its parameters, and parent the port spans", async () => {
    const { app, auth, spans } = observedApp();
    const headers = await bearer(auth, { role: "service_role" });
    const created = await send(
      app,
      "POST",
      "/admin/users",
      { email: "t@example.com", password: "pw-123456" },
      headers,
    );
    const { id } = (await created.json()) as { id: string };
    const res = await send(app, "PUT", `/auth/v1/admin/users/${id}`, { user_metadata: { a: 1 } }, headers);
    expect(res.status).toBe(200);

    const server = spans().find((s) => s.name === "PUT /admin/users/{user_id}");
    expect(server?.attributes).toMatchObject({
      "http.route": "/admin/users/{user_id}",
      "http.route.params.user_id": id,
      "http.request.method": "PUT",
      "http.response.status_code": 200,
      "authsvc.request_id": res.headers.get("x-request-id"),
    });
    const children = spans().filter((s) => s.parentSpanContext?.spanId === server?.spanContext().spanId);
    expect(children.map((s) => s.name)).toContain("transaction");
    const inTransaction = spans().filter(
      (s) =>
        s.parentSpanContext?.spanId === children.find((c) => c.name === "transaction")?.spanContext().spanId,
    );
    expect(inTransaction.map((s) => s.attributes["db.operation"])).toContain("users.update");
    expect(JSON.stringify(spans().map((s) => s.attributes))).not.toContain("t@example.com");
  });

  it("continue an incoming traceparent; /health has none", async () => {
    const { app, spans } = observedApp();
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const traceparent = `00-${traceId}-00f067aa0ba902b7-01`;
    await app.request("/settings", { headers: { traceparent } });
    await app.request("/health", { headers: { traceparent } });
    expect(spans().map((s) => [s.name, s.spanContext().traceId])).toEqual([["GET /settings", traceId]]);
  });
});

describe("metrics at the boundaries", () => {
  it("count sign-ups, sign-ins by method, rotations, reuse and hashing from what core did", async () => {
    const { app, metric } = observedApp();
    const signUp = await send(app, "POST", "/signup", { email: "m@example.com", password: "pw-123456" });
    expect(signUp.status).toBe(200);
    const { refresh_token: first } = (await signUp.json()) as { refresh_token: string };
    await send(app, "POST", "/token?grant_type=password", { email: "m@example.com", password: "wrong-pw" });
    const signedIn = await send(app, "POST", "/token?grant_type=password", {
      email: "m@example.com",
      password: "pw-123456",
    });
    expect(signedIn.status).toBe(200);
    const rotated = await send(app, "POST", "/token?grant_type=refresh_token", { refresh_token: first });
    const { refresh_token: second } = (await rotated.json()) as { refresh_token: string };
    await send(app, "POST", "/token?grant_type=refresh_token", { refresh_token: second });
    const reused = await send(app, "POST", "/token?grant_type=refresh_token", { refresh_token: first });
    expect(reused.headers.get("x-sb-error-code")).toBe("refresh_token_already_used");

    expect(await metric("authsvc_sign_ups")).toBe(1);
    // The sign-up's session and the password grant's.
    expect(await metric("authsvc_sign_ins", { method: "password" })).toBe(2);
    expect(await metric("authsvc_refresh_token_rotations")).toBe(2);
    expect(await metric("authsvc_refresh_token_reuse_detections")).toBe(1);
    expect(await metric("gotrue_generate_from_password_completed")).toBe(1);
    expect(await metric("gotrue_compare_hash_and_password_completed", { match: false })).toBe(1);
    expect(await metric("http_status_codes", { code: "400", "http.route": "/token" })).toBe(2);
    expect(await metric("http.server.request.duration", { "http.route": "/signup" })).toBe(1);
    expect(await metric("gotrue_running")).toBe(1);
    expect(await metric("global_auth_version_minor")).toBe(2);
  });

  it("do not count what a rolled-back transaction did", async () => {
    const { auth, metric } = observedApp();
    await expect(
      auth.store.transaction(async (repos) => {
        await repos.audit.record({
          action: "user_signedup",
          actorId: "x",
          actorUsername: "",
          at: new Date(),
        });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await metric("authsvc_sign_ups")).toBeUndefined();
  });

  it("count mail sends and their errors by type, never the address", async () => {
    const { auth, tracer, instruments, metric, spans } = observedApp();
    await auth.mailer.send({ kind: "recovery", to: "r@example.com", confirmationUrl: "https://x/?token=t" });
    const failing = observeMailer(
      { send: () => Promise.reject(new Error("refused")) },
      { tracer, instruments },
    );
    await expect(failing.send({ kind: "invite", to: "i@example.com" })).rejects.toThrow("refused");
    expect(await metric("global_auth_email_send_operations", { type: "recovery" })).toBe(1);
    expect(await metric("global_auth_email_send_operations", { type: "invite" })).toBe(1);
    expect(await metric("global_auth_email_send_errors", { type: "invite" })).toBe(1);
    expect(await metric("global_auth_email_send_errors", { type: "recovery" })).toBeUndefined();
    expect(spans().map((s) => s.name)).toEqual(["mail.send", "mail.send"]);
    expect(JSON.stringify(spans().map((s) => s.attributes))).not.toMatch(/r@example|i@example|token=t/);
  });

  it("count hook runs that failed, by hook", async () => {
    const { tracer, instruments, metric } = observedApp();
    const { dispatcher } = fakeHooks({
      after_user_created: () => err(failures.hookFailed("down")),
      custom_access_token: () => ok({ claims: {} }),
      send_sms: () => Promise.reject(new Error("unreachable")),
    });
    const hooks = observeHooks(dispatcher, { tracer, instruments });
    const user = { user: {} as never };
    expect((await hooks.run("after_user_created", user)).ok).toBe(false);
    expect((await hooks.run("after_user_created", user)).ok).toBe(false);
    await hooks.run("custom_access_token", { user_id: "u", claims: {}, authentication_method: "password" });
    await expect(hooks.run("send_sms", { ...user, sms: { otp: "1", phone: "1" } })).rejects.toThrow();
    expect(await metric("authsvc_hook_failures", { hook: "after_user_created" })).toBe(2);
    expect(await metric("authsvc_hook_failures", { hook: "send_sms" })).toBe(1);
    expect(await metric("authsvc_hook_failures", { hook: "custom_access_token" })).toBeUndefined();
  });

  it("count requests refused by a rate limit", async () => {
    const t = inMemoryTelemetry();
    const { app } = testApp({
      telemetry: httpTelemetry({ tracer: undefined, instruments: t.instruments }),
      rateLimit: {
        header: "x-forwarded-for",
        tokenPer5Min: 1,
        verifyPer5Min: 1,
        otpPer5Min: 1,
        authorizePer5Min: 1,
      },
      // In-process requests have no peer: the client is the entry the one trusted proxy appended.
      trustedProxyHops: 1,
    });
    for (let i = 0; i < 31; i++) {
      await send(
        app,
        "POST",
        "/token?grant_type=password",
        { email: "a@b.c", password: "x" },
        { "x-forwarded-for": "1.2.3.4" },
      );
    }
    expect(
      await t.metric("authsvc_rate_limit_refusals", {
        code: "over_request_rate_limit",
        "http.route": "/token",
      }),
    ).toBe(1);
  });
});
