import { describe, expect, it } from "vitest";
import type { PortTraits } from "./port-traits.js";

/** A port with one method whose input carries an address and one whose does not. */
interface Ledger {
  write(entry: { readonly amount: number; readonly ipAddress?: string | undefined }): Promise<void>;
  count(key: string): Promise<number>;
}

describe("PortTraits", () => {
  it("type each outcome by its method's arguments and result", () => {
    const traits: PortTraits<Ledger> = {
      write: { commits: true, addressed: true },
      count: {
        outcome: ([key], total) => (key === "sign-ups" && total > 0 ? { kind: "signed_up" } : undefined),
      },
    };
    expect(traits.count?.outcome?.(["sign-ups"], 1)).toEqual({ kind: "signed_up" });
    expect(traits.count?.outcome?.(["other"], 1)).toBeUndefined();
  });

  it("allow `addressed` only on a method whose first argument carries `ipAddress`", () => {
    const traits: PortTraits<Ledger> = {
      // @ts-expect-error: `count` takes a key, in which no address can be filled.
      count: { addressed: true },
    };
    expect(traits.count).toBeDefined();
  });
});
