import { describe, expect, it } from "vitest";
import { depsTraits, storeTraits } from "../port-traits.js";
import { defineSlice, mergeTraits } from "./slice.js";

interface Counter {
  bump(key: string): Promise<number>;
}

describe("the slice list", () => {
  it("merges the slices' port traits into one table", () => {
    const counting = defineSlice<{ repositories: { readonly counter: Counter } }>({
      storeTraits: { counter: { bump: { commits: true } } },
    });
    const waiting = defineSlice<{ deps: { readonly remote: Counter } }>({
      depsTraits: { remote: { bump: { waitsOutside: true } } },
    });
    expect(mergeTraits([counting, waiting, defineSlice()], "storeTraits")).toEqual({
      counter: { bump: { commits: true } },
    });
    expect(mergeTraits([counting, waiting], "depsTraits")).toEqual({
      remote: { bump: { waitsOutside: true } },
    });
  });

  it("refuses a port two slices declare traits for, and names it", () => {
    const counting = defineSlice<{ repositories: { readonly counter: Counter } }>({
      storeTraits: { counter: { bump: { commits: true } } },
    });
    expect(() => mergeTraits([counting, counting], "storeTraits")).toThrow(
      /storeTraits: declared twice: counter/,
    );
  });

  it("gives core the traits each slice declares beside its ports", () => {
    expect(Object.keys(storeTraits).sort()).toEqual([
      "audit",
      "customProviders",
      "quota",
      "sessions",
      "signInFailures",
    ]);
    expect(storeTraits.signInFailures?.clear?.commits).toBe(true);
    expect(Object.keys(depsTraits).sort()).toEqual(["hasher", "hooks", "leakedPasswords"]);
    expect(storeTraits.sessions?.grantPassword?.commits).toBe(true);
  });
});
