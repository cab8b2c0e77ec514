/** Sign-up: a new user by email or phone, confirmed by a mailed link or a texted code, or at once. */
export { signUp } from "./sign-up.js";
