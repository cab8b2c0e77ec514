import { describe, expect, it } from "vitest";
import { signedIn } from "../testing/mfa/signed-in.js";
import { enrollFactor } from "./enroll-factor.js";

describe("enrollFactor: the cap on factors", () => {
  it("holds under 30 parallel enrolments of one user: 10 enrolled, 20 refused", async () => {
    const { deps, user, session } = await signedIn();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        enrollFactor(deps, { user, sessionId: session.id, factorType: "totp", friendlyName: `app ${i}` }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    const refused = results.flatMap((r) => (r.ok ? [] : [r.error.code]));
    expect(refused).toEqual(Array(20).fill("too_many_enrolled_mfa_factors"));
    expect(await deps.store.factors.listByUser(user.id)).toHaveLength(10);
  });
});
