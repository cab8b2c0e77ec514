import { blankUser, createUser, lockUserByAddress, type Metadata, type User } from "../../accounts/index.js";
import { userToCreate, vetNewUser } from "../../hooks/index.js";
import type { Result } from "../../kernel/index.js";
import type { PasswordlessDeps, PasswordlessRepositories } from "../deps.js";

interface PasswordlessInput {
  channel: "email" | "phone";
  address: string;
  data: Metadata;
  now: Date;
  create: boolean;
  /** Create the address already confirmed (mailer autoconfirm). */
  confirmed?: boolean;
  /** The new user `vetPasswordless` had the before-user-created hook vet, if any. */
  vetted?: User | null;
}

/**
 * Before the transaction: has the before-user-created hook vet the user `findOrCreatePasswordless`
 * would create for this address (none when the address is taken, creation is off, or the hook is).
 */
export function vetPasswordless(
  deps: Pick<PasswordlessDeps, "store" | "random" | "settings"> & Partial<Pick<PasswordlessDeps, "hooks">>,
  input: PasswordlessInput,
): Promise<Result<User | null>> {
  const { users } = deps.store;
  const find = () =>
    input.channel === "email" ? users.findByEmail(input.address) : users.findByPhone(input.address);
  return vetNewUser(
    deps,
    async () => !input.create || (await find()) !== null,
    () => newPasswordlessUser(deps, input),
  );
}

function newPasswordlessUser(
  deps: Pick<PasswordlessDeps, "random" | "settings">,
  input: PasswordlessInput,
): User {
  return blankUser({
    id: deps.random.uuid(),
    aud: deps.settings.jwt.aud,
    role: deps.settings.jwt.defaultRole,
    createdAt: input.now,
    ...(input.channel === "email" ? { email: input.address } : { phone: input.address }),
    userMetadata: input.data,
    ...(input.confirmed
      ? { [input.channel === "email" ? "emailConfirmedAt" : "phoneConfirmedAt"]: input.now }
      : {}),
    appMetadata: { provider: input.channel, providers: [input.channel] },
  });
}

/**
 * The user with this address, created (without a password, unconfirmed, `data` as its metadata, with
 * its email or phone identity) when there is none — for `/otp` and `/magiclink`, which sign up an
 * unknown address. A concurrent request that created it first is simply found. `created` says which;
 * the caller records the sign-up. The answer is locked for the rest of the transaction.
 */
export async function findOrCreatePasswordless(
  deps: Pick<PasswordlessDeps, "random" | "settings"> & Partial<Pick<PasswordlessDeps, "hooks">>,
  repos: PasswordlessRepositories,
  input: PasswordlessInput,
): Promise<{ user: User; created: boolean } | null> {
  const lockFound = () => lockUserByAddress(repos.users, input.channel, input.address);
  const existing = await lockFound();
  if (existing) return { user: existing, created: false };
  if (!input.create) return null;
  const user = userToCreate(deps, input.vetted ?? null, () => newPasswordlessUser(deps, input));
  const inserted = await createUser(deps, repos, user, { now: input.now });
  if (inserted.created) return { user, created: true };
  if (inserted.clash === "duplicate_id") throw new Error("a random user id collided with an existing one");
  // A concurrent request created the address first: it is simply found.
  const winner = await lockFound();
  if (winner === null) throw new Error(`insert reported ${inserted.clash} but no such user exists`);
  return { user: winner, created: false };
}
