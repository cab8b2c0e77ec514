import { describe, expect, it } from "vitest";
import { updateUser } from "../account-settings/index.js";
import { sendMagicLink } from "../passwordless/index.js";
import { exchangeAuthCode } from "../pkce/index.js";
import { recoverPassword } from "../recovery/index.js";
import { signUp } from "../signup/index.js";
import { aUser, fakeDeps } from "../testing/index.js";
import { linkTokenOf } from "../testing/messaging/message-helpers.js";
import { rollingBack } from "../testing/rolling-back-store.js";
import { resend } from "./resend.js";
import { verifyOtp } from "./verify.js";

const VERIFIER = "a-plain-verifier-of-at-least-forty-three-characters";
const pkce = { codeChallenge: VERIFIER, method: "plain" } as const;

/** Follows a PKCE link (as GET /verify does) and exchanges the code; answers the session's amr method. */
async function followAndExchange(
  deps: ReturnType<typeof fakeDeps>,
  type: "signup" | "magiclink" | "recovery" | "email_change",
  link: string,
) {
  expect(link.startsWith("pkce_")).toBe(true);
  const followed = await verifyOtp(deps, { type, tokenHash: link, pkce: true });
  if (!followed.ok || followed.value.kind !== "code") throw new Error(`no code: ${JSON.stringify(followed)}`);
  const exchanged = await exchangeAuthCode(deps, { authCode: followed.value.code, codeVerifier: VERIFIER });
  if (!exchanged.ok) throw exchanged.error;
  return exchanged.value.tokens;
}

describe("PKCE email flows", () => {
  it("confirms a sign-up by link, answering a code that the verifier turns into an email/signup session", async () => {
    const deps = fakeDeps();
    await signUp(deps, { email: "alice@example.com", password: "secret1", pkce });
    const tokens = await followAndExchange(deps, "signup", linkTokenOf(deps.mailer.sent[0]));
    expect(tokens.session.amr[0]?.method).toBe("email/signup");
    expect(tokens.user).toMatchObject({ email: "alice@example.com", emailConfirmedAt: deps.clock.now() });
    // No session before the exchange: following the link alone signs nobody in.
    expect(deps.store.tables.sessions.size).toBe(1);
  });

  it("runs recovery, magic link and resent confirmation as PKCE flows of their own methods", async () => {
    const deps = fakeDeps();
    const user = aUser({ email: "bob@example.com", emailConfirmedAt: deps.clock.now() });
    deps.store.tables.users.set(user.id, user);
    await recoverPassword(deps, { email: "bob@example.com", pkce });
    expect(
      (await followAndExchange(deps, "recovery", linkTokenOf(deps.mailer.sent[0]))).session.amr[0]?.method,
    ).toBe("recovery");
    await sendMagicLink(deps, { email: "bob@example.com", pkce });
    expect(
      (await followAndExchange(deps, "magiclink", linkTokenOf(deps.mailer.sent[1]))).session.amr[0]?.method,
    ).toBe("magiclink");

    await signUp(deps, { email: "carol@example.com", password: "secret1" });
    deps.clock.advance(3_600_000);
    await resend(deps, { type: "signup", email: "carol@example.com", pkce });
    const tokens = await followAndExchange(deps, "signup", linkTokenOf(deps.mailer.sent.at(-1)));
    expect(tokens.user.email).toBe("carol@example.com");
  });

  it("changes the email with PKCE links to both addresses; the second yields the code", async () => {
    const deps = fakeDeps();
    const user = aUser({ email: "dan@example.com", emailConfirmedAt: deps.clock.now() });
    deps.store.tables.users.set(user.id, user);
    const updated = await updateUser(deps, {
      userId: user.id,
      sessionId: null,
      email: "dan@new.example",
      pkce,
    });
    expect(updated.ok).toBe(true);
    const [toNew, toCurrent] = deps.mailer.sent;
    const first = await verifyOtp(deps, { type: "email_change", tokenHash: linkTokenOf(toNew), pkce: true });
    expect(first).toMatchObject({ ok: true, value: { kind: "message" } });
    const tokens = await followAndExchange(deps, "email_change", linkTokenOf(toCurrent));
    expect(tokens.user.email).toBe("dan@new.example");
    expect(tokens.session.amr[0]?.method).toBe("email_change");
  });

  it("leaves a PKCE link unused when its flow state is gone (400 flow_state_not_found)", async () => {
    const deps = fakeDeps();
    rollingBack(deps.store);
    await signUp(deps, { email: "erin@example.com", password: "secret1", pkce });
    deps.store.tables.flowStates.clear();
    const link = linkTokenOf(deps.mailer.sent[0]);
    expect(await verifyOtp(deps, { type: "signup", tokenHash: link, pkce: true })).toEqual({
      ok: false,
      error: expect.objectContaining({ code: "flow_state_not_found" }),
    });
    // The link was not consumed: the same link still confirms, as an implicit one.
    expect(await verifyOtp(deps, { type: "signup", tokenHash: link })).toMatchObject({
      ok: true,
      value: { kind: "session" },
    });
  });
});
