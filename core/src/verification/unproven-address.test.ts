import { describe, expect, it } from "vitest";
import { blankUser } from "../accounts/index.js";
import { fakeDeps } from "../testing/index.js";
import { recoverPassword } from "./recover.js";
import { sendMagicLink } from "./send-magic-link.js";

const ID = "11111111-1111-4111-8111-111111111111";

/**
 * Someone's account, confirmed by phone, holding alice@example.com unconfirmed (taken from a linked
 * identity whose provider did not vouch for it): Alice owns the mailbox, not necessarily the account.
 */
function phoneAccountWithAlicesAddress(fields: { encryptedPassword?: string | null } = {}) {
  const deps = fakeDeps();
  const user = blankUser({
    id: ID,
    aud: "authenticated",
    role: "authenticated",
    createdAt: new Date("2025-01-01T00:00:00Z"),
    email: "alice@example.com",
    phone: "15550001111",
    phoneConfirmedAt: new Date("2025-01-01T00:00:00Z"),
    ...fields,
  });
  deps.store.tables.users.set(ID, user);
  return { deps, user };
}

describe("an address unconfirmed on an account confirmed by phone", () => {
  it("gets no magic link (nor the confirmation in its place): {} and nothing mailed or changed", async () => {
    for (const encryptedPassword of [null, "plain$someone-elses"]) {
      const { deps, user } = phoneAccountWithAlicesAddress({ encryptedPassword });
      expect(await sendMagicLink(deps, { email: "alice@example.com" })).toEqual({ ok: true, value: {} });
      expect(deps.mailer.sent).toEqual([]);
      expect(deps.store.tables.users.get(ID)).toEqual(user);
    }
  });

  it("gets no recovery mail: {} and nothing mailed or changed", async () => {
    const { deps, user } = phoneAccountWithAlicesAddress({ encryptedPassword: "plain$someone-elses" });
    expect(await recoverPassword(deps, { email: "alice@example.com" })).toEqual({ ok: true, value: {} });
    expect(deps.mailer.sent).toEqual([]);
    expect(deps.store.tables.users.get(ID)).toEqual(user);
  });
});
