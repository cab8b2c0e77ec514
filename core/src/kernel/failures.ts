import { type AuthError, authError } from "./errors.js";

export const failures = {
  emailExists: (): AuthError =>
    authError(422, "email_exists", "A user with this email address has already been registered"),
  phoneExists: (): AuthError =>
    authError(422, "phone_exists", "Phone number already registered by another user"),
};
