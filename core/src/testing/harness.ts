import { afterEach, beforeEach } from "vitest";
import type { AuditEntry } from "../accounts/index.js";
import { blankUser, type Identity, type User } from "../accounts/index.js";
import type { RefreshTokenRecord, Session } from "../sessions/index.js";
import type { Repositories, Store } from "../store.js";

/** One store under test, empty when made. */
export interface StoreHarness {
  readonly store: Store;
  /** Throws the store and its contents away (or empties it for the next test). */
  cleanup(): Promise<void>;
  /** What the store's AuditLog recorded, oldest first, read back as entries. */
  auditEntries(): Promise<readonly AuditEntry[]>;
  /**
   * Resolves once some other transaction of this store is waiting for a row lock, or once `stop()` is
   * true. Needed where the second of two transactions that lock one row really starts (Postgres) so that
   * a test can hold the first until the second provably waits; omitted where the second waits before it
   * reaches the database (the fake's in-memory row locks, the embedded server's one-transaction-at-a-time
   * backend).
   */
  untilLockWaited?(stop: () => boolean): Promise<void>;
}

export type MakeStore = () => Promise<StoreHarness>;

/** A fresh harness for every test of the enclosing describe; the getter reads the current one. */
export function useStore(makeStore: MakeStore): () => StoreHarness {
  let current: StoreHarness | undefined;
  beforeEach(async () => {
    current = await makeStore();
  });
  afterEach(async () => {
    await current?.cleanup();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error("no store: call the getter inside a test");
    return current;
  };
}

// Unique per test run, so that a store shared by several test files never sees a clash.
const run = Math.floor(Math.random() * 0xffffffff)
  .toString(16)
  .padStart(8, "0");
let counter = 0;

/** A fresh lowercase UUID (v4 layout). */
export const newId = (): string => `${run}-0000-4000-8000-${(++counter).toString(16).padStart(12, "0")}`;

/** A fresh refresh-token hash: 64 lowercase hex digits, as SHA-256 gives. */
export const newHash = (): string => `${run}${(++counter).toString(16).padStart(56, "0")}`;

/** `seconds` after a fixed instant (millisecond precision survives every store). */
export const at = (seconds: number): Date => new Date(Date.UTC(2030, 0, 1) + seconds * 1000);

/** A user with a unique id and lowercase email; every optional field unset unless given. */
export function aUser(fields: Partial<User> = {}): User {
  const id = fields.id ?? newId();
  return blankUser({
    id,
    aud: "authenticated",
    role: "authenticated",
    createdAt: at(0),
    email: `u-${id}@example.com`,
    ...fields,
  });
}

/** A user with every field set to a non-default value. */
export function aFullUser(fields: Partial<User> = {}): User {
  return aUser({
    phone: `1555${String(++counter).padStart(7, "0")}`,
    encryptedPassword: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo",
    emailConfirmedAt: at(1),
    phoneConfirmedAt: at(2),
    invitedAt: at(3),
    confirmationSentAt: at(4),
    recoverySentAt: at(5),
    magicLinkSentAt: at(12),
    emailChange: "new-address@example.com",
    emailChangeSentAt: at(6),
    phoneChange: "15550009999",
    phoneChangeSentAt: at(7),
    reauthenticationSentAt: at(8),
    reauthenticationToken: newHash(),
    lastSignInAt: at(9),
    appMetadata: { provider: "email", providers: ["email", "github"] },
    userMetadata: { name: "Alice", settings: { theme: "dark", sizes: [1, 2.5, -3] } },
    bannedUntil: at(10),
    isAnonymous: true,
    deletedAt: at(13),
    createdAt: at(-100),
    updatedAt: at(11),
    ...fields,
  });
}

export function anIdentity(user: User, fields: Partial<Identity> = {}): Identity {
  return {
    id: newId(),
    providerId: user.id,
    userId: user.id,
    provider: "email",
    identityData: { sub: user.id, email: user.email, email_verified: false },
    lastSignInAt: null,
    createdAt: at(0),
    updatedAt: at(0),
    ...fields,
  };
}

export function aSession(user: User, fields: Partial<Session> = {}): Session {
  return {
    id: newId(),
    userId: user.id,
    aal: "aal1",
    amr: [{ method: "password", timestamp: Math.floor(at(0).getTime() / 1000) }],
    createdAt: at(0),
    updatedAt: at(0),
    refreshedAt: null,
    notAfter: null,
    ...fields,
  };
}

export function aToken(
  session: Session,
  fields: Partial<Omit<RefreshTokenRecord, "id">> = {},
): Omit<RefreshTokenRecord, "id"> {
  return {
    sessionId: session.id,
    userId: session.userId,
    tokenHash: newHash(),
    parentId: null,
    revoked: false,
    createdAt: at(0),
    updatedAt: at(0),
    ...fields,
  };
}

/** Inserts `user` and fails the test unless it was inserted. */
export async function seedUser(store: Repositories, user: User = aUser()): Promise<User> {
  const outcome = await store.users.insert(user);
  if (outcome !== "inserted") throw new Error(`seeding user ${user.id}: ${outcome}`);
  return user;
}

/** A user with one session: what most session tests start from. */
export async function seedSession(store: Repositories, fields: Partial<Session> = {}) {
  const user = await seedUser(store);
  const session = aSession(user, fields);
  await store.sessions.create(session);
  return { user, session };
}

/** A promise and the function that resolves it: lets a test hold a transaction open. */
export function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
