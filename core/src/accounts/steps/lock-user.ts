import type { UserRepository } from "../ports/user-repository.js";
import type { User } from "../user.js";

/**
 * The user holding this email or phone, row-locked until the transaction ends, or null. Found first
 * because `lock` takes an id; the lock then makes concurrent requests for one address wait their turn.
 */
export async function lockUserByAddress(
  users: Pick<UserRepository, "findByEmail" | "findByPhone" | "lock">,
  channel: "email" | "phone",
  address: string,
): Promise<User | null> {
  const found = channel === "email" ? await users.findByEmail(address) : await users.findByPhone(address);
  return found && users.lock(found.id);
}
