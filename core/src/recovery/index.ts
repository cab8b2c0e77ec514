/** Recovery: a mailed link or code that signs the user in so that they can set a new password. */
export type * from "./deps.js";
export * from "./recover.js";
