import { describe, expect, it } from "vitest";
import { afterFirstSignInRaces, FirstSignInRaceLost } from "./first-sign-in-race.js";

describe("afterFirstSignInRaces", () => {
  it("runs the attempt again after a lost race, and answers the next attempt's outcome", async () => {
    let attempts = 0;
    const outcome = await afterFirstSignInRaces(async () => {
      attempts++;
      if (attempts === 1) throw new FirstSignInRaceLost();
      return "signed in";
    });
    expect(outcome).toBe("signed in");
    expect(attempts).toBe(2);
  });

  it("rethrows any other error at once, and a race lost three times", async () => {
    let attempts = 0;
    const fault = new Error("database gone");
    await expect(
      afterFirstSignInRaces(async () => {
        attempts++;
        throw fault;
      }),
    ).rejects.toBe(fault);
    expect(attempts).toBe(1);
    attempts = 0;
    await expect(
      afterFirstSignInRaces(async () => {
        attempts++;
        throw new FirstSignInRaceLost();
      }),
    ).rejects.toBeInstanceOf(FirstSignInRaceLost);
    expect(attempts).toBe(3);
  });
});
