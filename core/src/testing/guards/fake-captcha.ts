import type { CaptchaChallenge, CaptchaVerdict, CaptchaVerifier } from "../../guards/index.js";

/** A captcha provider that accepts the given tokens and refuses every other as a real one does. */
export class FakeCaptcha implements CaptchaVerifier {
  /** Every challenge received, in order. */
  readonly challenges: CaptchaChallenge[] = [];
  /** When set, the next `verify` throws this, as an unreachable provider would. */
  failNext: Error | undefined;

  constructor(private readonly accepted: ReadonlySet<string>) {}

  async verify(challenge: CaptchaChallenge): Promise<CaptchaVerdict> {
    this.challenges.push(challenge);
    const failure = this.failNext;
    this.failNext = undefined;
    if (failure) throw failure;
    return this.accepted.has(challenge.token)
      ? { success: true, errorCodes: [] }
      : { success: false, errorCodes: ["invalid-input-response"] };
  }
}
