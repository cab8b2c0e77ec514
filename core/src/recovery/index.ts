/** Recovery: a mailed link or code that signs the user in so that they can set a new password. */
export * from "./recover.js";
