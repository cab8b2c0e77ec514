import { describe, expect, it } from "vitest";
import { syncChannelIdentities, withProviders } from "./channel-identity.js";
import { blankUser, type Identity } from "./user.js";

const ID = "11111111-1111-4111-8111-111111111111";
const now = new Date("2026-01-01T00:00:00Z");
const later = new Date("2026-01-02T00:00:00Z");
let next = 0;
const newId = () => `identity-${++next}`;

const emailIdentity = (data: Record<string, unknown>): Identity => ({
  id: "e1",
  providerId: ID,
  userId: ID,
  provider: "email",
  identityData: data,
  lastSignInAt: null,
  createdAt: now,
  updatedAt: now,
});

describe("syncChannelIdentities", () => {
  const user = blankUser({
    id: ID,
    aud: "authenticated",
    role: "authenticated",
    createdAt: now,
    email: "a@example.com",
  });

  it("leaves an identity that already matches the user alone", () => {
    const identity = emailIdentity({
      sub: ID,
      email: "a@example.com",
      email_verified: false,
      phone_verified: false,
    });
    const synced = syncChannelIdentities(user, [identity], { now: later, newId });
    expect(synced).toEqual({ identities: [identity], inserted: [], updated: [] });
  });

  it("refreshes the address and verified flag, keeping the provider's other data", () => {
    const identity = emailIdentity({ sub: ID, email: "old@example.com", email_verified: false, name: "A" });
    const confirmed = { ...user, emailConfirmedAt: later };
    const synced = syncChannelIdentities(confirmed, [identity], { now: later, newId });
    expect(synced.inserted).toEqual([]);
    expect(synced.updated).toEqual([
      {
        ...identity,
        identityData: {
          sub: ID,
          email: "a@example.com",
          email_verified: true,
          phone_verified: false,
          name: "A",
        },
        updatedAt: later,
      },
    ]);
    expect(synced.identities).toEqual(synced.updated);
  });

  it("keeps the identity of a channel the user no longer has", () => {
    const identity = emailIdentity({ sub: ID, email: "a@example.com" });
    const phoneOnly = { ...user, email: null, phone: "15550100" };
    const synced = syncChannelIdentities(phoneOnly, [identity], { now: later, newId });
    expect(synced.identities.map((i) => i.provider)).toEqual(["email", "phone"]);
    expect(synced.updated).toEqual([]);
  });
});

describe("withProviders", () => {
  it("sets provider to the first distinct provider, keeping other keys", () => {
    const identities = ["email", "github", "email"].map((provider) => ({ ...emailIdentity({}), provider }));
    expect(withProviders({ plan: "pro", provider: "old" }, identities)).toEqual({
      plan: "pro",
      provider: "email",
      providers: ["email", "github"],
    });
  });

  it("leaves app_metadata alone when there is no identity", () => {
    expect(withProviders({ plan: "pro" }, [])).toEqual({ plan: "pro" });
  });
});
