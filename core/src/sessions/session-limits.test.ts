import { describe, expect, it } from "vitest";
import { fixedEnd, lastActiveAt, type SessionLimits, sessionEnd, supersededBy } from "./session-limits.js";

const t = (seconds: number) => new Date(Date.UTC(2030, 0, 1) + seconds * 1000);
const off: SessionLimits = { timeboxMs: 0, inactivityTimeoutMs: 0, singlePerUser: false };
const session = (fields: {
  createdAt?: Date;
  refreshedAt?: Date | null;
  notAfter?: Date | null;
  id?: string;
}) => ({
  id: fields.id ?? "s",
  createdAt: fields.createdAt ?? t(0),
  refreshedAt: fields.refreshedAt ?? null,
  notAfter: fields.notAfter ?? null,
});

describe("lastActiveAt", () => {
  it("is the last refresh, else the presented token's change when later than creation, else creation", () => {
    expect(lastActiveAt(session({ refreshedAt: t(50) }), t(90))).toEqual(t(50));
    expect(lastActiveAt(session({}), t(90))).toEqual(t(90));
    expect(lastActiveAt(session({ createdAt: t(10) }), t(5))).toEqual(t(10));
    expect(lastActiveAt(session({ createdAt: t(10) }))).toEqual(t(10));
  });
});

describe("sessionEnd", () => {
  it("never ends a session with every limit off", () => {
    expect(sessionEnd(session({}), off, t(10 ** 9))).toBeNull();
  });

  it("ends a session strictly after its timebox, however recently refreshed", () => {
    const limits = { ...off, timeboxMs: 60_000 };
    const s = session({ refreshedAt: t(59) });
    expect(sessionEnd(s, limits, t(60))).toBeNull();
    expect(sessionEnd(s, limits, t(60.001))).toBe("timebox");
  });

  it("ends a session left unrefreshed strictly longer than the inactivity timeout", () => {
    const limits = { ...off, inactivityTimeoutMs: 30_000 };
    expect(sessionEnd(session({}), limits, t(30))).toBeNull();
    expect(sessionEnd(session({}), limits, t(31))).toBe("inactivity");
    expect(sessionEnd(session({ refreshedAt: t(20) }), limits, t(50))).toBeNull();
    expect(sessionEnd(session({ refreshedAt: t(20) }), limits, t(51))).toBe("inactivity");
    // A session row without refreshed_at counts from its token's last change, as the reference.
    expect(sessionEnd(session({}), limits, t(50), t(25))).toBeNull();
  });

  it("obeys a stored not_after first, even with the limits off", () => {
    const s = session({ notAfter: t(5) });
    expect(sessionEnd(s, off, t(5))).toBeNull();
    expect(sessionEnd(s, { ...off, timeboxMs: 1000 }, t(6))).toBe("not_after");
  });

  it("checks the timebox before inactivity (the reference's order, which picks the message)", () => {
    expect(sessionEnd(session({}), { ...off, timeboxMs: 1000, inactivityTimeoutMs: 1000 }, t(2))).toBe(
      "timebox",
    );
  });
});

describe("supersededBy", () => {
  const limits = { ...off, singlePerUser: true };

  it("is true when another live session was active later, false when this one is the latest", () => {
    const older = session({ id: "a", createdAt: t(0) });
    const newer = session({ id: "b", createdAt: t(10) });
    expect(supersededBy(older, [older, newer], limits, t(20))).toBe(true);
    expect(supersededBy(newer, [older, newer], limits, t(20))).toBe(false);
    // Refreshing the older one since makes it the latest again.
    const refreshed = { ...older, refreshedAt: t(15) };
    expect(supersededBy(refreshed, [refreshed, newer], limits, t(20))).toBe(false);
    expect(supersededBy(newer, [refreshed, newer], limits, t(20))).toBe(true);
  });

  it("ignores sessions that have ended", () => {
    const older = session({ id: "a", createdAt: t(0), refreshedAt: t(100) });
    const newer = session({ id: "b", createdAt: t(50) });
    const timeboxed = { ...limits, timeboxMs: 80_000 };
    // At 120 s the newer one is still inside its timebox and was active before the older one's refresh.
    expect(supersededBy(older, [older, newer], timeboxed, t(120))).toBe(false);
    const later = session({ id: "c", createdAt: t(110) });
    expect(supersededBy(older, [older, later], timeboxed, t(120))).toBe(true);
    expect(supersededBy(older, [older, later], timeboxed, t(191))).toBe(false);
  });
});

describe("fixedEnd", () => {
  it("is the earlier of not_after and the timebox's end, null when neither applies", () => {
    expect(fixedEnd(session({}), off)).toBeNull();
    expect(fixedEnd(session({}), { ...off, timeboxMs: 60_000 })).toEqual(t(60));
    expect(fixedEnd(session({ notAfter: t(30) }), { ...off, timeboxMs: 60_000 })).toEqual(t(30));
    expect(fixedEnd(session({ notAfter: t(90) }), off)).toEqual(t(90));
  });
});
