import type { User } from "./user.js";

/** The `actor_username` of an audit entry about `user`: phone, else email, else "". */
export const actorUsername = (user: Pick<User, "email" | "phone">): string => user.phone || user.email || "";
