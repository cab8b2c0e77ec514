import { signupRoutes } from "../../routes/signup.js";
import { signupOperations } from "../../routes/signup.openapi.js";
import type { HttpModule } from "../module.js";
import { routeFilesOf } from "../module.js";

/** `POST /signup`: new users by email, phone or anonymously. */
export const signupModule: HttpModule = {
  name: "signup",
  routes: () => routeFilesOf(signupRoutes()),
  statuses: {
    email_exists: 422,
    phone_exists: 422,
    signup_disabled: 422,
    user_already_exists: 400,
    email_provider_disabled: 400,
    phone_provider_disabled: 400,
    anonymous_provider_disabled: 422,
  },
  operations: [...signupOperations],
};
