import type { User } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, isUuid, ok, type Result, transactionRollingBackOn } from "../kernel/index.js";
import type { PasskeysDeps } from "./deps.js";
import type { Passkey } from "./passkey.js";
import { managementAllowed, passkeysEnabled } from "./steps/rules.js";

type Deps = Pick<PasskeysDeps, "store" | "clock" | "settings">;

/** The longest friendly name, in UTF-8 bytes (the reference's). */
export const MAX_PASSKEY_NAME_BYTES = 120;

/** `GET /passkeys`: the caller's passkeys, oldest first (anonymous users have none, and may ask). */
export async function listPasskeys(deps: Deps, input: { user: User }): Promise<Result<Passkey[]>> {
  const enabled = passkeysEnabled(deps);
  if (!enabled.ok) return enabled;
  return ok(await deps.store.passkeys.listByUser(input.user.id));
}

/** `PATCH /passkeys/{id}`: renames one of the caller's passkeys. */
export async function renamePasskey(
  deps: Deps,
  input: { user: User; passkeyId: string; friendlyName: string },
): Promise<Result<Passkey>> {
  const enabled = passkeysEnabled(deps);
  if (!enabled.ok) return enabled;
  const name = input.friendlyName.trim();
  if (name === "") return err(failures.passkeyNameMissing());
  if (utf8Length(name) > MAX_PASSKEY_NAME_BYTES) return err(failures.passkeyNameTooLong());
  if (!isUuid(input.passkeyId)) return err(failures.passkeyNotFound());
  const { user } = input;
  const now = deps.clock.now();
  return transactionRollingBackOn(deps.store, async (repos): Promise<Result<Passkey>> => {
    const renamed = await repos.passkeys.rename(user.id, input.passkeyId, name, now);
    if (renamed === null) return err(failures.passkeyNotFound());
    await repos.audit.record({
      action: "passkey_updated",
      actorId: user.id,
      actorUsername: user.phone || user.email || "",
      traits: { passkey_id: renamed.id },
      at: now,
    });
    return ok(renamed);
  });
}

/** `DELETE /passkeys/{id}`: removes one of the caller's passkeys (aal2 when they have a second factor). */
export async function deletePasskey(
  deps: Deps,
  input: { user: User; sessionId: string | null; passkeyId: string },
): Promise<Result<true>> {
  const enabled = passkeysEnabled(deps);
  if (!enabled.ok) return enabled;
  const { user } = input;
  const allowed = await managementAllowed(deps.store, user, input.sessionId);
  if (!allowed.ok) return allowed;
  if (!isUuid(input.passkeyId)) return err(failures.passkeyNotFound());
  const now = deps.clock.now();
  return transactionRollingBackOn(deps.store, async (repos): Promise<Result<true>> => {
    if (!(await repos.passkeys.delete(user.id, input.passkeyId))) return err(failures.passkeyNotFound());
    await repos.audit.record({
      action: "passkey_deleted",
      actorId: user.id,
      actorUsername: user.phone || user.email || "",
      traits: { passkey_id: input.passkeyId },
      at: now,
    });
    return ok(true);
  });
}

/** `GET /admin/users/{id}/passkeys`: a user's passkeys, whether or not passkeys are enabled. */
export async function adminListPasskeys(
  deps: Pick<PasskeysDeps, "store">,
  input: { userId: string },
): Promise<Result<Passkey[]>> {
  const user = isUuid(input.userId) ? await deps.store.users.findById(input.userId) : null;
  if (user === null) return err(failures.userNotFound());
  return ok(await deps.store.passkeys.listByUser(user.id));
}

/** `DELETE /admin/users/{id}/passkeys/{passkey_id}`: removes a user's passkey, audited with the admin as actor. */
export async function adminDeletePasskey(
  deps: Pick<PasskeysDeps, "store" | "clock">,
  input: { userId: string; passkeyId: string; actor: { role: string } },
): Promise<Result<true>> {
  const user = isUuid(input.userId) ? await deps.store.users.findById(input.userId) : null;
  if (user === null) return err(failures.userNotFound());
  if (!isUuid(input.passkeyId)) return err(failures.passkeyNotFound());
  const now = deps.clock.now();
  return transactionRollingBackOn(deps.store, async (repos): Promise<Result<true>> => {
    if (!(await repos.passkeys.delete(user.id, input.passkeyId))) return err(failures.passkeyNotFound());
    await repos.audit.record({
      action: "passkey_deleted",
      actorId: "",
      actorUsername: input.actor.role,
      traits: { user_id: user.id, passkey_id: input.passkeyId },
      at: now,
    });
    return ok(true);
  });
}

/** The length of `text` in UTF-8 bytes. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const point = char.codePointAt(0) ?? 0;
    bytes += point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4;
  }
  return bytes;
}
