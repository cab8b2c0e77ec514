import { describe, expect, it } from "vitest";
import { blankUser, type User } from "../accounts/index.js";
import type { AuthSettings } from "../settings.js";
import { defaultAuthSettings, fakeDeps, type fakeQuota } from "../testing/index.js";
import { type GenerateLinkInput, generateLink } from "./generate-link.js";

const SITE = "http://localhost:3000";
const CONFIRMED = "11111111-1111-4111-8111-111111111111";
const UNCONFIRMED = "22222222-2222-4222-8222-222222222222";
const ADMIN = { role: "service_role" };
const failure = (code: string, message: string) => ({
  ok: false,
  error: { code, message },
});
const link = (type: string, token = "rt1", redirect = SITE) =>
  `http://localhost:9999/verify?token=${token}&type=${type}&redirect_to=${redirect}`;

/** Carol (confirmed carol@example.com) and Dan (dan@example.com, signed up but unconfirmed). */
function setUp(settings: Partial<AuthSettings> = {}) {
  const deps = fakeDeps(settings);
  const created = deps.clock.now();
  const base = { aud: "authenticated", role: "authenticated", createdAt: created };
  deps.store.tables.users.set(
    CONFIRMED,
    blankUser({ ...base, id: CONFIRMED, email: "carol@example.com", emailConfirmedAt: created }),
  );
  deps.store.tables.users.set(
    UNCONFIRMED,
    blankUser({
      ...base,
      id: UNCONFIRMED,
      email: "dan@example.com",
      userMetadata: { a: 1, b: 2 },
      confirmationSentAt: created,
    }),
  );
  deps.clock.advance(3_600_000);
  const generate = (input: Omit<GenerateLinkInput, "actor">) =>
    generateLink(deps, { actor: ADMIN, ...input });
  const user = (id: string) => deps.store.tables.users.get(id) as User;
  const byEmail = (email: string) => [...deps.store.tables.users.values()].find((u) => u.email === email);
  const tokens = () =>
    [...deps.store.tables.oneTimeTokens.values()].map((t) => ({
      type: t.type,
      relatesTo: t.relatesTo,
      tokenHash: t.tokenHash,
      otpHash: t.otpHash,
    }));
  /** Nothing left the server and no email quota was taken. */
  const nothingSent = () => {
    expect(deps.mailer.sent).toEqual([]);
    expect(deps.sms.sent).toEqual([]);
    expect((deps.store.quota as ReturnType<typeof fakeQuota>).counts.size).toBe(0);
  };
  return { deps, generate, user, byEmail, tokens, nothingSent };
}

describe("generateLink", () => {
  describe("signup", () => {
    it("creates the user with the password and exactly the data, and answers the link", async () => {
      const { deps, generate, byEmail, tokens, nothingSent } = setUp();
      const result = await generate({
        type: "signup",
        email: "Erin@Example.com",
        password: "secret123",
        data: { nested: { x: [1] } },
      });
      const erin = byEmail("erin@example.com");
      expect(erin).toMatchObject({
        encryptedPassword: "plain$secret123",
        userMetadata: { nested: { x: [1] } },
        emailConfirmedAt: null,
        confirmationSentAt: deps.clock.now(),
        appMetadata: { provider: "email", providers: ["email"] },
      });
      expect(result).toMatchObject({
        ok: true,
        value: {
          user: { id: erin?.id, email: "erin@example.com", identities: [{ provider: "email" }] },
          actionLink: link("signup"),
          emailOtp: "000001",
          hashedToken: "rt1",
          verificationType: "signup",
          redirectTo: SITE,
        },
      });
      // Only hashes are kept: the answered token and code appear nowhere in the store in the clear.
      expect(tokens()).toEqual([
        {
          type: "confirmation_token",
          relatesTo: "erin@example.com",
          tokenHash: "h(rt1)",
          otpHash: "h(erin@example.com000001)",
        },
      ]);
      expect(deps.store.tables.audit.map((e) => [e.action, e.actorUsername])).toEqual([
        ["user_signedup", "service_role"],
      ]);
      nothingSent();
    });

    it("requires a valid password for a new user, creating nothing", async () => {
      const { generate, byEmail } = setUp();
      expect(await generate({ type: "signup", email: "erin@example.com" })).toMatchObject(
        failure("validation_failed", "Signup requires a valid password"),
      );
      expect(await generate({ type: "signup", email: "erin@example.com", password: "123" })).toMatchObject(
        failure("weak_password", "Password should be at least 6 characters."),
      );
      expect(byEmail("erin@example.com")).toBeUndefined();
    });

    it("refreshes the confirmation of an unconfirmed user, merging the data", async () => {
      const { deps, generate, user, tokens, nothingSent } = setUp();
      const result = await generate({ type: "signup", email: "dan@example.com", data: { b: null, c: 3 } });
      expect(result).toMatchObject({
        ok: true,
        value: { verificationType: "signup", user: { id: UNCONFIRMED } },
      });
      expect(user(UNCONFIRMED)).toMatchObject({
        userMetadata: { a: 1, c: 3 },
        confirmationSentAt: deps.clock.now(),
      });
      expect(tokens().map((t) => t.type)).toEqual(["confirmation_token"]);
      nothingSent();
    });

    it("refuses a confirmed address", async () => {
      const { generate, tokens } = setUp();
      expect(
        await generate({ type: "signup", email: "carol@example.com", password: "secret123" }),
      ).toMatchObject(failure("email_exists", "A user with this email address has already been registered"));
      expect(tokens()).toEqual([]);
    });
  });

  describe("invite", () => {
    it("invites a new address: no password, invited_at, the data as metadata", async () => {
      const { deps, generate, byEmail, tokens, nothingSent } = setUp();
      const result = await generate({ type: "invite", email: "erin@example.com", data: { team: "x" } });
      expect(result).toMatchObject({
        ok: true,
        value: {
          actionLink: link("invite"),
          verificationType: "invite",
          user: { invitedAt: deps.clock.now() },
        },
      });
      expect(byEmail("erin@example.com")).toMatchObject({
        encryptedPassword: null,
        invitedAt: deps.clock.now(),
        userMetadata: { team: "x" },
      });
      expect(tokens().map((t) => [t.type, t.relatesTo])).toEqual([
        ["confirmation_token", "erin@example.com"],
      ]);
      expect(deps.store.tables.audit.map((e) => e.action)).toEqual(["user_invited"]);
      nothingSent();
    });

    it("invites an unconfirmed user again and refuses a confirmed one", async () => {
      const { deps, generate, user } = setUp();
      expect(await generate({ type: "invite", email: "dan@example.com" })).toMatchObject({ ok: true });
      expect(user(UNCONFIRMED).invitedAt).toEqual(deps.clock.now());
      expect(await generate({ type: "invite", email: "carol@example.com" })).toMatchObject(
        failure("email_exists", "A user with this email address has already been registered"),
      );
    });
  });

  describe("magiclink", () => {
    it("links a known user with a recovery token", async () => {
      const { deps, generate, user, tokens, nothingSent } = setUp();
      const result = await generate({ type: "magiclink", email: "carol@example.com" });
      expect(result).toMatchObject({
        ok: true,
        value: { actionLink: link("magiclink"), verificationType: "magiclink" },
      });
      expect(user(CONFIRMED).magicLinkSentAt).toEqual(deps.clock.now());
      expect(tokens().map((t) => [t.type, t.relatesTo])).toEqual([["recovery_token", "carol@example.com"]]);
      expect(deps.store.tables.audit.map((e) => [e.action, e.actorId])).toEqual([
        ["user_recovery_requested", CONFIRMED],
      ]);
      nothingSent();
    });

    it("signs an unknown address up instead, without a password", async () => {
      const { generate, byEmail, tokens, nothingSent } = setUp();
      const result = await generate({ type: "magiclink", email: "erin@example.com", data: { k: "v" } });
      expect(result).toMatchObject({
        ok: true,
        value: { actionLink: link("signup"), verificationType: "signup" },
      });
      expect(byEmail("erin@example.com")).toMatchObject({
        encryptedPassword: null,
        userMetadata: { k: "v" },
      });
      expect(tokens().map((t) => t.type)).toEqual(["confirmation_token"]);
      nothingSent();
    });
  });

  describe("recovery", () => {
    it("links a known user", async () => {
      const { deps, generate, user, tokens, nothingSent } = setUp();
      const result = await generate({ type: "recovery", email: "carol@example.com" });
      expect(result).toMatchObject({
        ok: true,
        value: { actionLink: link("recovery"), verificationType: "recovery" },
      });
      expect(user(CONFIRMED).recoverySentAt).toEqual(deps.clock.now());
      expect(tokens().map((t) => t.type)).toEqual(["recovery_token"]);
      nothingSent();
    });

    it("answers 404 for an unknown address", async () => {
      const { generate, byEmail } = setUp();
      expect(await generate({ type: "recovery", email: "erin@example.com" })).toMatchObject(
        failure("user_not_found", "User with this email not found"),
      );
      expect(byEmail("erin@example.com")).toBeUndefined();
    });
  });

  describe("email change", () => {
    it("links the new address and shows the pending change", async () => {
      const { deps, generate, user, tokens, nothingSent } = setUp();
      const result = await generate({
        type: "email_change_new",
        email: "carol@example.com",
        newEmail: "New@Example.com",
      });
      expect(result).toMatchObject({
        ok: true,
        value: {
          actionLink: link("email_change"),
          verificationType: "email_change_new",
          user: { email: "carol@example.com", emailChange: "new@example.com" },
        },
      });
      expect(user(CONFIRMED)).toMatchObject({
        emailChange: "new@example.com",
        emailChangeSentAt: deps.clock.now(),
      });
      expect(tokens()).toEqual([
        {
          type: "email_change_token_new",
          relatesTo: "new@example.com",
          tokenHash: "h(rt1)",
          otpHash: "h(new@example.com000001)",
        },
      ]);
      nothingSent();
    });

    it("links the current address, and keeps both links needed for the same change", async () => {
      const { generate, tokens } = setUp();
      const current = await generate({
        type: "email_change_current",
        email: "carol@example.com",
        newEmail: "new@example.com",
      });
      expect(current).toMatchObject({
        ok: true,
        value: { actionLink: link("email_change"), verificationType: "email_change_current" },
      });
      await generate({ type: "email_change_new", email: "carol@example.com", newEmail: "new@example.com" });
      expect(tokens().map((t) => [t.type, t.relatesTo])).toEqual([
        ["email_change_token_current", "carol@example.com"],
        ["email_change_token_new", "new@example.com"],
      ]);
      // A different new address starts over: the other address's token belonged to another change.
      await generate({ type: "email_change_new", email: "carol@example.com", newEmail: "other@example.com" });
      expect(tokens().map((t) => [t.type, t.relatesTo])).toEqual([
        ["email_change_token_new", "other@example.com"],
      ]);
    });

    it("refuses a missing new address, an unknown user, a taken address, and current without secure change", async () => {
      const { generate } = setUp();
      expect(await generate({ type: "email_change_new", email: "carol@example.com" })).toMatchObject(
        failure("validation_failed", "An email address is required"),
      );
      expect(
        await generate({ type: "email_change_new", email: "erin@example.com", newEmail: "new@example.com" }),
      ).toMatchObject(failure("user_not_found", "User with this email not found"));
      expect(
        await generate({
          type: "email_change_current",
          email: "carol@example.com",
          newEmail: "dan@example.com",
        }),
      ).toMatchObject(failure("email_exists", "A user with this email address has already been registered"));
      const insecure = setUp({ mailer: { ...defaultAuthSettings().mailer, secureEmailChange: false } });
      expect(
        await insecure.generate({
          type: "email_change_current",
          email: "carol@example.com",
          newEmail: "n@example.com",
        }),
      ).toMatchObject(
        failure("validation_failed", "Enable secure email change to generate link for current email"),
      );
    });
  });

  it("uses an allowed redirect_to and silently falls back to SITE_URL otherwise", async () => {
    const { generate } = setUp({ uriAllowList: ["https://app.example.com/**"] });
    const allowed = await generate({
      type: "recovery",
      email: "carol@example.com",
      redirectTo: "https://app.example.com/reset",
    });
    expect(allowed).toMatchObject({
      ok: true,
      value: {
        redirectTo: "https://app.example.com/reset",
        actionLink: link("recovery", "rt1", "https://app.example.com/reset"),
      },
    });
    const refused = await generate({
      type: "recovery",
      email: "carol@example.com",
      redirectTo: "carol@example.com",
    });
    expect(refused).toMatchObject({
      ok: true,
      value: { redirectTo: SITE, actionLink: link("recovery", "rt2") },
    });
  });

  it("refuses an unknown type and a malformed address", async () => {
    const { generate } = setUp();
    expect(await generate({ type: "sms", email: "carol@example.com" })).toMatchObject(
      failure("validation_failed", "Invalid email action link type requested: sms"),
    );
    expect(await generate({ type: "signup", email: "xx:;x@x.x", password: "secret123" })).toMatchObject(
      failure("validation_failed", "Unable to validate email address: invalid format"),
    );
  });
});
