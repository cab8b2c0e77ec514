import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../../modules/module.js";
import { signerOf, tokensOf } from "./crypto.js";
import { jwksEndpoint } from "./jwks.js";
import * as jwt from "./section.js";

/** The signing of access tokens and the public keys at `/.well-known/jwks.json`. */
export const jwtModule: HttpModule = {
  name: "jwt",
  section: sectionOf(jwt),
  ports: ({ config, shared }) => ({ tokens: tokensOf(config), signer: signerOf(config, shared.clock) }),
  settings: (config) => ({ jwt: jwt.jwtSettings(config) }),
  endpoints: [jwksEndpoint],
};
