import type { HttpModule } from "../module.js";
import { signupEndpoints } from "./signup.js";

/** `POST /signup`: new users by email, phone or anonymously. */
export const signupModule: HttpModule = {
  name: "signup",
  endpoints: signupEndpoints,
  statuses: {
    email_exists: 422,
    phone_exists: 422,
    signup_disabled: 422,
    user_already_exists: 400,
    email_provider_disabled: 400,
    phone_provider_disabled: 400,
    anonymous_provider_disabled: 422,
  },
};
