/** Polls `check` until it answers something truthy (5 s at most): for effects that follow the answer. */
export async function until<T>(check: () => T | Promise<T>): Promise<NonNullable<T>> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error("condition not met within 5 s");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
