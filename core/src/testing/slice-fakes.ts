import type { fixedClock } from "./kernel/fakes.js";

/** What a slice's fakes are built from: the one clock of the set of fakes. */
export interface FakeContext {
  readonly clock: ReturnType<typeof fixedClock>;
}

/**
 * A slice's fakes: the default of its settings and a fake of each of its own ports. Each slice's
 * lie beside its other fakes (`testing/<slice>/slice-fakes.ts`); `fake-deps.ts` gathers them.
 */
export interface SliceFakes<S extends object, D extends object> {
  readonly settings: S;
  readonly deps: (context: FakeContext) => D;
}

export const sliceFakes = <S extends object, D extends object>(fakes: SliceFakes<S, D>): SliceFakes<S, D> =>
  fakes;

/** A limiter that allows each key once. */
export function onceEach() {
  const seen = new Set<string>();
  return {
    take: async (key: string) => {
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    },
  };
}
