/** One dependency the server cannot answer without (the database). */
export interface ReadinessCheck {
  readonly name: string;
  /** Resolves when the dependency answers; rejects (or outlasts the timeout) when it does not. */
  check(): Promise<void>;
}

/** How long one check may take before its dependency counts as down. */
export const READINESS_TIMEOUT_MS = 2_000;
