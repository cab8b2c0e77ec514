import type { PortTraits } from "./ports/port-traits.js";

/**
 * What a slice adds to the composition at core's root, as types: `core/src/slices.ts` lists each
 * slice once, and `AuthDeps`, `Repositories`, `Store` and `AuthSettings` are the intersections of
 * the slices' parts. A part a slice has none of is left out.
 */
export interface SliceTypes {
  /** The ports its use cases use (`<Slice>Deps`). */
  readonly deps?: object;
  /** Its repositories, bound to one connection or transaction (`<Slice>Repositories`). */
  readonly repositories?: object;
  /** What the store holds for it outside any transaction (the hooks' database functions). */
  readonly store?: object;
  /** Its part of `AuthSettings` (`<slice>/settings.ts`). */
  readonly settings?: object;
}

/** Part `K` of `T`, or `Fallback` when the slice has none. */
type Part<T extends SliceTypes, K extends keyof SliceTypes, Fallback = object> = T[K] extends object
  ? T[K]
  : Fallback;

/** Part `K` of the types a slice's entry carries; `never` (left out of the union) when it has none. */
type PartOf<T, K extends keyof SliceTypes> =
  NonNullable<T> extends SliceTypes ? Part<NonNullable<T>, K, never> : never;

/** The traits of some of a group of ports (a slice's repositories, or its other ports), by port. */
export type TraitsOf<P> = { readonly [K in keyof P]?: PortTraits<P[K]> };

/** A slice's entry in the list: its port traits, and its types for the composition. */
export interface Slice<T extends SliceTypes> {
  /** The traits of its repositories (commit points, addressed writes, outcomes), by repository. */
  readonly storeTraits: TraitsOf<Part<T, "repositories">>;
  /** The traits of its other ports (those whose waits are outside this process), by port. */
  readonly depsTraits: TraitsOf<Omit<Part<T, "deps">, "store">>;
  /** Carries `T` for the type-level composition only: never set. */
  readonly types?: T;
}

/** A slice's entry: `defineSlice<{ deps: MfaDeps; repositories: MfaRepositories }>()`. */
export function defineSlice<T extends SliceTypes>(
  traits: Partial<Pick<Slice<T>, "storeTraits" | "depsTraits">> = {},
): Slice<T> {
  return { storeTraits: traits.storeTraits ?? {}, depsTraits: traits.depsTraits ?? {} };
}

/** `A | B | C` → `A & B & C`. */
export type Intersection<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void
  ? I
  : never;

/** One object type with the members of `T` (an interface may extend it: its members are known). */
type Members<T> = { [K in keyof T]: T[K] };

/** Part `K` of every slice of the list `L`, intersected: e.g. every slice's deps. */
export type Composed<L, K extends keyof SliceTypes> = Members<
  Intersection<{ [N in keyof L]: L[N] extends { readonly types?: infer T } ? PartOf<T, K> : never }[keyof L]>
>;

/**
 * The slices' traits of one kind merged into one table; a port two slices declare is refused, as a
 * spread would keep the last silently.
 */
export function mergeTraits<P>(slices: readonly Slice<SliceTypes>[], kind: "storeTraits" | "depsTraits"): P {
  const tables = slices.map((slice) => slice[kind]);
  const names = tables.flatMap((table) => Object.keys(table));
  const twice = names.filter((name, i) => names.indexOf(name) !== i);
  if (twice.length > 0) throw new Error(`${kind}: declared twice: ${[...new Set(twice)].join(", ")}`);
  return Object.assign({}, ...tables) as P;
}
