/**
 * What the store has committed, as the metrics count it: a session started (by its last
 * authentication method), a user signed up, a refresh token rotated, a sign-in identifier locked.
 */
export type CommittedOutcome =
  | { readonly kind: "signed_in"; readonly method: string }
  | { readonly kind: "signed_up" }
  | { readonly kind: "refresh_rotated" }
  | { readonly kind: "account_locked" };

/** A first argument that carries the client's address (an audit entry, a grant's input). */
interface Addressed {
  readonly ipAddress?: string | undefined;
}

/**
 * What one port method does besides answering, declared once beside the port: whatever wraps the
 * port (the app's request deadline, admission, telemetry) then treats a call by what it is, whichever
 * use case makes it, and a method added without its traits is treated as a plain read.
 */
export interface MethodTraits<A extends readonly unknown[], R> {
  /**
   * Called directly on the store (not inside `transaction`), it commits on its own — one atomic
   * statement: from its start the caller's change may be durable. Inside a transaction it is part
   * of that transaction, whose commit is the commit point.
   */
  readonly commits?: true;
  /**
   * Its first argument's `ipAddress` is the client's, for the audit entries it writes. Use cases
   * leave it undefined (they know no addresses); whoever knows the request fills it in.
   */
  readonly addressed?: A extends readonly [Addressed, ...unknown[]] ? true : never;
  /**
   * It waits on something that is not this process's work (a worker pool, an endpoint elsewhere): a
   * request may give up its turn meanwhile.
   */
  readonly waitsOutside?: true;
  /** What the call stands for once it (or the transaction it ran in) committed, if anything. */
  readonly outcome?: (args: A, result: R) => CommittedOutcome | undefined;
}

/** The traits of a port's methods, by method; a method not named has none. */
export type PortTraits<P> = {
  readonly [K in keyof P]?: P[K] extends (...args: infer A) => infer R ? MethodTraits<A, Awaited<R>> : never;
};
