/** How a set of token buckets fills and how many keys it may hold. */
export interface TokenBucketOptions {
  /** Most requests a key may make at once (the burst); every bucket starts full. */
  readonly capacity: number;
  /** Tokens added per `windowMs`, spread evenly. */
  readonly refillPerWindow: number;
  readonly windowMs: number;
  /** Keys kept at most; past it, the least recently seen key is forgotten. */
  readonly maxKeys?: number;
  /** Milliseconds from any fixed origin; injected by tests. */
  readonly now?: () => number;
}

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date. */
  at: number;
}

/** Enough for a busy instance's distinct clients within a few minutes, and a few MB at most. */
export const DEFAULT_MAX_KEYS = 100_000;

/**
 * In-memory token buckets, one per key (as the reference's tollbooth limiters). Keys are kept in
 * least-recently-seen order, which makes both eviction rules cheap: a key unseen for long enough to
 * have refilled completely is dropped (a full bucket is the same as no bucket, so this changes no
 * decision), and past `maxKeys` the least recently seen key goes first.
 */
export class TokenBuckets {
  readonly #capacity: number;
  readonly #perMs: number;
  readonly #maxKeys: number;
  readonly #now: () => number;
  /** Longest a key can stay unseen before its bucket is certainly full again. */
  readonly #idleMs: number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(options: TokenBucketOptions) {
    this.#capacity = options.capacity;
    this.#perMs = options.refillPerWindow / options.windowMs;
    this.#maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
    this.#now = options.now ?? (() => performance.now());
    this.#idleMs = this.#capacity / this.#perMs;
  }

  /** Takes one token from `key`'s bucket; false when it is empty (the request is over the limit). */
  take(key: string): boolean {
    const now = this.#now();
    this.#dropIdle(now);
    const bucket = this.#buckets.get(key);
    let tokens = this.#capacity;
    if (bucket !== undefined) {
      // A clock that steps back must not mint tokens, hence max(0, …).
      tokens = Math.min(this.#capacity, bucket.tokens + Math.max(0, now - bucket.at) * this.#perMs);
      this.#buckets.delete(key); // re-inserted below, as the most recently seen
    } else if (this.#buckets.size >= this.#maxKeys) {
      const oldest = this.#buckets.keys().next().value;
      if (oldest !== undefined) this.#buckets.delete(oldest);
    }
    const allowed = tokens >= 1;
    this.#buckets.set(key, { tokens: allowed ? tokens - 1 : tokens, at: now });
    return allowed;
  }

  /** Keys currently remembered. */
  get size(): number {
    return this.#buckets.size;
  }

  /** Drops the keys, oldest first, that have been unseen long enough to be full again. */
  #dropIdle(now: number): void {
    for (const [key, bucket] of this.#buckets) {
      if (now - bucket.at < this.#idleMs) return;
      this.#buckets.delete(key);
    }
  }
}
