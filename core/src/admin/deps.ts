import type { VerificationDeps, VerificationRepositories, VerificationStore } from "../verification/index.js";

/** Admin use cases touch every table (a ban revokes sessions, an invite sends a mail). */
export type AdminRepositories = VerificationRepositories;
export type AdminStore = VerificationStore;
export type AdminDeps = VerificationDeps;
