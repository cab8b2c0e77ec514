import { describe, expect, it } from "vitest";
import { blankUser } from "../../accounts/index.js";
import { failures } from "../../failures.js";
import { fakeDeps } from "../../testing/fake-deps.js";
import { NOTIFICATION_KINDS, notifyAccountChange } from "./notify-account-change.js";

const NOW = new Date("2026-01-01T00:00:00Z");
const ann = blankUser({
  id: "00000000-0000-4000-8000-00000000000a",
  aud: "authenticated",
  role: "authenticated",
  createdAt: NOW,
  email: "ann@example.com",
  phone: "15550002",
});
const allOn = Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, true])) as Record<
  (typeof NOTIFICATION_KINDS)[number],
  boolean
>;

function setup(overrides: { on?: boolean; rateLimitPerHour?: number } = {}) {
  const base = fakeDeps();
  const deps = fakeDeps({
    notifications: overrides.on === false ? base.settings.notifications : allOn,
    mailer: { ...base.settings.mailer, rateLimitPerHour: overrides.rateLimitPerHour ?? 30 },
  });
  return deps;
}

describe("notifyAccountChange", () => {
  it("mails each change with the reference's details, to the right address", async () => {
    const deps = setup();
    await notifyAccountChange(deps, ann, { kind: "password_changed_notification" }, NOW);
    await notifyAccountChange(
      deps,
      ann,
      { kind: "email_changed_notification", oldEmail: "old@example.com" },
      NOW,
    );
    await notifyAccountChange(deps, ann, { kind: "phone_changed_notification", oldPhone: "15550001" }, NOW);
    await notifyAccountChange(
      deps,
      ann,
      { kind: "identity_unlinked_notification", provider: "github", to: "before@example.com" },
      NOW,
    );
    await notifyAccountChange(
      deps,
      ann,
      { kind: "mfa_factor_enrolled_notification", factorType: "totp" },
      NOW,
    );
    expect(deps.mailer.sent).toEqual([
      { kind: "password_changed_notification", to: "ann@example.com", email: "ann@example.com" },
      {
        kind: "email_changed_notification",
        to: "old@example.com",
        email: "ann@example.com",
        oldEmail: "old@example.com",
      },
      {
        kind: "phone_changed_notification",
        to: "ann@example.com",
        email: "ann@example.com",
        phone: "15550002",
        oldPhone: "15550001",
      },
      {
        kind: "identity_unlinked_notification",
        to: "before@example.com",
        email: "before@example.com",
        provider: "github",
      },
      {
        kind: "mfa_factor_enrolled_notification",
        to: "ann@example.com",
        email: "ann@example.com",
        factorType: "totp",
      },
    ]);
    expect(deps.mailer.contexts.map((context) => context.user?.id)).toEqual(Array(5).fill(ann.id));
  });

  it("mails nothing when the switch is off or the user has no address", async () => {
    const off = setup({ on: false });
    await notifyAccountChange(off, ann, { kind: "password_changed_notification" }, NOW);
    const on = setup();
    await notifyAccountChange(on, { ...ann, email: null }, { kind: "password_changed_notification" }, NOW);
    expect([...off.mailer.sent, ...on.mailer.sent]).toEqual([]);
  });

  it("counts against the hourly cap; the cap's refusal and a failed send are the queue's failures, never thrown", async () => {
    const deps = setup({ rateLimitPerHour: 1 });
    await notifyAccountChange(deps, ann, { kind: "password_changed_notification" }, NOW);
    await notifyAccountChange(deps, ann, { kind: "password_changed_notification" }, NOW);
    expect(deps.mailer.sent).toHaveLength(1);
    deps.mailer.send = async () => {
      throw failures.emailSendFailed("password changed notification");
    };
    const fresh = setup();
    fresh.mailer.send = deps.mailer.send;
    await notifyAccountChange(fresh, ann, { kind: "password_changed_notification" }, NOW);
    expect([...deps.deliveries.failures, ...fresh.deliveries.failures].map((f) => f.code)).toEqual([
      "over_email_send_rate_limit",
      "email_send_failed",
    ]);
  });
});
