import type { HttpModule } from "../module.js";
import { userEndpoints } from "./user.js";

/** The signed-in user: `GET`/`PUT /user`, reauthentication and sign-out. */
export const accountSettingsModule: HttpModule = {
  name: "account-settings",
  endpoints: userEndpoints,
  statuses: {
    reauthentication_needed: 400,
    same_password: 422,
    reauthentication_not_valid: 422,
  },
  failureStatuses: {
    reauthenticationEmailNotConfirmed: 422,
    reauthenticationPhoneNotConfirmed: 422,
    reauthenticationNoAddress: 422,
    anonymousPasswordUpdate: 422,
    // PUT /user: a change of password, email or phone below aal2 is the reference's 401.
    updateNeedsAal2: 401,
  },
};
