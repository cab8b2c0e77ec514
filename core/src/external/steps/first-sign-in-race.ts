/**
 * Thrown inside a sign-in's transaction when another sign-in of the same person, also the first,
 * created the identity (or took the address) and committed first. Thrown, so that everything this
 * attempt wrote (a user of its own) rolls back: no orphan user is left behind.
 */
export class FirstSignInRaceLost extends Error {
  override readonly name = "FirstSignInRaceLost";
  constructor() {
    super("a concurrent first sign-in of the same person committed first");
  }
}

/** How many times a sign-in runs when it keeps losing such races (each loss needs a new winner). */
const ATTEMPTS = 3;

/**
 * Runs `attempt` (one transaction, with its own outbox) and, when it lost the race of a first sign-in,
 * again: the winner has committed by then, so the next attempt finds its identity and signs into it,
 * as every concurrent sign-in of an existing identity does.
 */
export async function afterFirstSignInRaces<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (thrown) {
      if (!(thrown instanceof FirstSignInRaceLost) || tries >= ATTEMPTS) throw thrown;
    }
  }
}
