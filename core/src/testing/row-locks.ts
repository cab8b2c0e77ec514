/**
 * Row locks as `select … for update` takes them: a transaction's `lock` waits while another transaction
 * holds the row, and everything it locked is released when its callback settles. Without them two
 * concurrent refreshes would both rotate the same token here, yet never against Postgres.
 */
export function rowLocks() {
  const tails = new Map<string, Promise<void>>();
  return () => {
    const releases: (() => void)[] = [];
    const held = new Set<string>();
    return {
      async lock(key: string): Promise<void> {
        if (held.has(key)) return;
        held.add(key);
        const previous = tails.get(key) ?? Promise.resolve();
        let release!: () => void;
        const mine = new Promise<void>((resolve) => {
          release = resolve;
        });
        tails.set(key, mine);
        releases.push(() => {
          release();
          if (tails.get(key) === mine) tails.delete(key);
        });
        await previous;
      },
      releaseAll: () => {
        for (const release of releases) release();
      },
    };
  };
}
