/**
 * Account settings: the signed-in user changes their own account (`PUT /user`) — metadata, password
 * (after reauthentication where required), email and phone (each confirmed through `/verify`).
 */
export { reauthenticate } from "./reauthenticate.js";
export { requestEmailChange } from "./request-email-change.js";
export * from "./request-phone-change.js";
export type * from "./settings.js";
export { updateUser } from "./update-user.js";
