import { describe, expect, it } from "vitest";
import { smsCodeOf } from "../testing/messaging/message-helpers.js";
import { enrolTotp, IP, type SignedIn, signedIn } from "../testing/mfa/signed-in.js";
import { challengeFactor } from "./challenge-factor.js";
import { enrollFactor } from "./enroll-factor.js";
import { backoffEnd } from "./steps/guessing-limits.js";
import { verifyFactor } from "./verify-factor.js";

/** A TOTP factor of the signed-in user, and helpers to challenge it and answer a challenge. */
async function totpFactor(setup: SignedIn) {
  const { deps, user, session, totp } = setup;
  const enrolled = await enrolTotp(setup);
  const factorId = enrolled.factor.id;
  const secret = enrolled.totp?.secret ?? "";
  const challenge = async () => {
    const made = await challengeFactor(deps, { user, factorId, ipAddress: IP });
    if (!made.ok) throw made.error;
    return made.value.id;
  };
  const answer = (challengeId: string, code: string) =>
    verifyFactor(deps, { user, sessionId: session.id, factorId, challengeId, code, ipAddress: IP });
  /** A code that is not the factor's at the clock's step, nor at either neighbour. */
  const wrong = () => {
    const now = deps.clock.now().getTime();
    const right = [-30_000, 0, 30_000].map((d) => totp.codeAt(secret, new Date(now + d)));
    return ["000000", "111111", "222222", "333333"].find((c) => !right.includes(c)) ?? "";
  };
  const right = (offsetMs = 0) => totp.codeAt(secret, new Date(deps.clock.now().getTime() + offsetMs));
  return { factorId, secret, challenge, answer, wrong, right };
}

const codes = (results: readonly { ok: boolean; error?: { code: string } }[]) =>
  results.map((r) => (r.ok ? "ok" : (r.error?.code ?? "?")));

describe("verifyFactor: wrong codes are limited", () => {
  it("voids a challenge after five codes: the right code is refused on it, a new challenge is needed", async () => {
    const setup = await signedIn();
    const f = await totpFactor(setup);
    const challengeId = await f.challenge();
    for (let i = 0; i < 5; i++) {
      expect(await f.answer(challengeId, f.wrong())).toMatchObject({
        error: { code: "mfa_verification_failed", message: "Invalid TOTP code entered" },
      });
    }
    expect(await f.answer(challengeId, f.right())).toMatchObject({
      error: {
        code: "mfa_challenge_expired",
        message: `MFA challenge ${challengeId} has taken too many codes, create a new challenge.`,
      },
    });
    // Five wrong codes in a row on the factor: the next code waits 15 s, whatever the challenge.
    const next = await f.challenge();
    expect(await f.answer(next, f.right())).toMatchObject({
      error: {
        code: "over_request_rate_limit",
        message:
          "Too many wrong codes for this factor: for security purposes, you can only try again after 15 seconds.",
      },
    });
    setup.deps.clock.advance(15_000);
    const verified = await f.answer(next, f.right());
    expect(verified.ok).toBe(true);
    expect(setup.deps.store.tables.sessions.get(setup.session.id)).toMatchObject({ aal: "aal2" });
  });

  it("makes each wrong code past five in a row wait twice as long, across challenges; a right code passes once the wait is over", async () => {
    const setup = await signedIn();
    const { clock } = setup.deps;
    const f = await totpFactor(setup);
    let challengeId = await f.challenge();
    for (let i = 0; i < 5; i++) await f.answer(challengeId, f.wrong());
    for (const wait of [15, 30, 60, 120]) {
      challengeId = await f.challenge();
      clock.advance((wait - 1) * 1000);
      expect(await f.answer(challengeId, f.right())).toMatchObject({
        error: { code: "over_request_rate_limit", message: expect.stringContaining("after 1 seconds") },
      });
      clock.advance(1000);
      expect(await f.answer(challengeId, f.wrong())).toMatchObject({
        error: { code: "mfa_verification_failed" },
      });
    }
    // Refused attempts used none of the challenge's five codes.
    expect(setup.deps.store.tables.challenges.get(challengeId)?.attempts).toBe(1);
    clock.advance(240_000);
    expect((await f.answer(await f.challenge(), f.right())).ok).toBe(true);
  });

  it("clears the count with a right code after fewer than five wrong ones", async () => {
    const setup = await signedIn();
    const f = await totpFactor(setup);
    const first = await f.challenge();
    for (let i = 0; i < 4; i++) await f.answer(first, f.wrong());
    expect((await f.answer(first, f.right())).ok).toBe(true);
    setup.deps.clock.advance(30_000);
    const next = await f.challenge();
    expect(codes(await Promise.all([1, 2, 3, 4, 5].map(() => f.answer(next, f.wrong()))))).toEqual(
      Array(5).fill("mfa_verification_failed"),
    );
  });

  it("keeps counting after a right code that came once the factor was waiting; forgets a day after the last wait", async () => {
    const setup = await signedIn();
    const { clock } = setup.deps;
    const f = await totpFactor(setup);
    const challengeId = await f.challenge();
    for (let i = 0; i < 5; i++) await f.answer(challengeId, f.wrong());
    clock.advance(15_000);
    // The user's right codes, among someone's guesses: neither waits nor adds to the count.
    expect((await f.answer(await f.challenge(), f.right())).ok).toBe(true);
    clock.advance(30_000);
    expect((await f.answer(await f.challenge(), f.right())).ok).toBe(true);
    // The guesses do not start over from five free: the next wrong code makes the following one wait.
    expect(await f.answer(await f.challenge(), f.wrong())).toMatchObject({
      error: { code: "mfa_verification_failed" },
    });
    expect(await f.answer(await f.challenge(), f.wrong())).toMatchObject({
      error: { code: "over_request_rate_limit", message: expect.stringContaining("after 30 seconds") },
    });
    // A day after that wait ended, the count is forgotten.
    clock.advance(30_000 + 86_400_000 + 1_000);
    const later = await f.challenge();
    expect(codes(await Promise.all([1, 2, 3, 4, 5].map(() => f.answer(later, f.wrong()))))).toEqual(
      Array(5).fill("mfa_verification_failed"),
    );
  });

  it("doubles the wait from 15 s up to a day", () => {
    const now = new Date(0);
    const seconds = (failed: number) => ((backoffEnd(failed, now)?.getTime() ?? 0) - now.getTime()) / 1000;
    expect([0, 4].map((n) => backoffEnd(n, now))).toEqual([null, null]);
    expect([5, 6, 7, 17, 18, 60, 10_000].map(seconds)).toEqual([15, 30, 60, 61_440, 86_400, 86_400, 86_400]);
  });

  it("counts parallel wrong codes one after the other: 20 at one challenge, five checked", async () => {
    const setup = await signedIn();
    const f = await totpFactor(setup);
    const challengeId = await f.challenge();
    const results = codes(
      await Promise.all(Array.from({ length: 20 }, () => f.answer(challengeId, f.wrong()))),
    );
    expect(results.filter((c) => c === "mfa_verification_failed")).toHaveLength(5);
    expect(results.filter((c) => c === "mfa_challenge_expired")).toHaveLength(15);
  });

  it("counts parallel wrong codes at many challenges against the factor: 20 at four challenges, five checked", async () => {
    const setup = await signedIn();
    const f = await totpFactor(setup);
    const challenges = [await f.challenge(), await f.challenge(), await f.challenge(), await f.challenge()];
    const attempts = Array.from({ length: 20 }, (_, i) => f.answer(challenges[i % 4] ?? "", f.wrong()));
    const results = codes(await Promise.all(attempts));
    expect(results.filter((c) => c === "mfa_verification_failed")).toHaveLength(5);
    expect(results.filter((c) => c === "over_request_rate_limit")).toHaveLength(15);
  });

  it("limits phone codes alike", async () => {
    const setup = await signedIn();
    const { deps, user, session } = setup;
    const enrolled = await enrollFactor(deps, {
      user,
      sessionId: session.id,
      factorType: "phone",
      phone: "+1 555 123 4567",
    });
    if (!enrolled.ok) throw enrolled.error;
    const factorId = enrolled.value.factor.id;
    const challenge = await challengeFactor(deps, { user, factorId, ipAddress: IP });
    if (!challenge.ok) throw challenge.error;
    const code = smsCodeOf(deps.sms.sent.at(-1));
    const answer = (c: string) =>
      verifyFactor(deps, {
        user,
        sessionId: session.id,
        factorId,
        challengeId: challenge.value.id,
        code: c,
        ipAddress: IP,
      });
    const wrong = code === "000000" ? "000001" : "000000";
    const results = await Promise.all(Array.from({ length: 8 }, () => answer(wrong)));
    expect(codes(results).filter((c) => c === "mfa_verification_failed")).toHaveLength(5);
    expect(codes(results).filter((c) => c === "mfa_challenge_expired")).toHaveLength(3);
    expect(await answer(code)).toMatchObject({ error: { code: "mfa_challenge_expired" } });
  });
});

describe("verifyFactor: a TOTP code proves once (RFC 6238 §5.2)", () => {
  it("refuses a code already accepted on the factor, and older steps' codes; the next step's code passes", async () => {
    const setup = await signedIn();
    const f = await totpFactor(setup);
    const code = f.right();
    expect((await f.answer(await f.challenge(), code)).ok).toBe(true);
    expect(await f.answer(await f.challenge(), code)).toMatchObject({
      error: {
        code: "mfa_verification_failed",
        message: "TOTP code already used, enter the next code your app shows",
      },
    });
    // The previous step's code is still within the window, but older than the accepted one.
    expect(await f.answer(await f.challenge(), f.right(-30_000))).toMatchObject({
      error: {
        code: "mfa_verification_failed",
        message: "TOTP code already used, enter the next code your app shows",
      },
    });
    setup.deps.clock.advance(30_000);
    expect((await f.answer(await f.challenge(), f.right())).ok).toBe(true);
  });

  it("lets one of two parallel verifications with one code, on two challenges, pass", async () => {
    const setup = await signedIn();
    const f = await totpFactor(setup);
    const [a, b] = [await f.challenge(), await f.challenge()];
    const code = f.right();
    const results = codes(await Promise.all([f.answer(a, code), f.answer(b, code)]));
    expect(results.sort()).toEqual(["mfa_verification_failed", "ok"]);
  });
});
