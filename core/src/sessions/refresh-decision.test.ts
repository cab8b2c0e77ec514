import { describe, expect, it } from "vitest";
import { decideRefresh, type RefreshFacts } from "./refresh-decision.js";

const revokedAt = new Date("2026-01-01T00:00:00Z");
const at = (ms: number) => new Date(revokedAt.getTime() + ms);
const facts = (overrides: Partial<RefreshFacts>): RefreshFacts => ({
  revoked: true,
  revokedAt,
  now: at(0),
  rotationEnabled: true,
  reuseIntervalMs: 10_000,
  activeIsItsChild: true,
  ...overrides,
});

describe("decideRefresh", () => {
  it("rotates a token that is not revoked, whatever the settings", () => {
    expect(decideRefresh(facts({ revoked: false }))).toBe("rotate");
    expect(decideRefresh(facts({ revoked: false, rotationEnabled: false }))).toBe("rotate");
  });

  it("re-issues the child for the previous token up to the end of the interval", () => {
    expect(decideRefresh(facts({ now: at(10_000) }))).toBe("reissue_child");
    expect(decideRefresh(facts({ now: at(10_001) }))).toBe("revoke_descendants");
  });

  it("treats an older token as reuse even within the interval", () => {
    expect(decideRefresh(facts({ activeIsItsChild: false }))).toBe("revoke_descendants");
  });

  it("with a zero interval, only the very same instant counts as concurrent", () => {
    expect(decideRefresh(facts({ reuseIntervalMs: 0 }))).toBe("reissue_child");
    expect(decideRefresh(facts({ reuseIntervalMs: 0, now: at(1) }))).toBe("revoke_descendants");
  });

  it("refuses revoked tokens without revoking when rotation is disabled", () => {
    expect(decideRefresh(facts({ rotationEnabled: false }))).toBe("refuse");
    expect(decideRefresh(facts({ rotationEnabled: false, activeIsItsChild: false }))).toBe("refuse");
  });
});
