import { sliceFakes } from "../slice-fakes.js";

/** Account settings' settings of a default configuration. */
export const accountSettingsFakes = sliceFakes({
  settings: { updatePasswordRequiresReauthentication: false },
  deps: () => ({}),
});
