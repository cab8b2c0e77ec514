import * as jwt from "../../config/sections/jwt.js";
import { sectionOf } from "../../config/sections/section.js";
import { jwksRoutes } from "../../routes/jwks.js";
import { jwksOperations } from "../../routes/jwks.openapi.js";
import { signerOf, tokensOf } from "../../wiring/crypto.js";
import type { HttpModule } from "../module.js";
import { routeFilesOf } from "../module.js";

/** The signing of access tokens and the public keys at `/.well-known/jwks.json`. */
export const jwtModule: HttpModule = {
  name: "jwt",
  section: sectionOf(jwt),
  ports: ({ config, shared }) => ({ tokens: tokensOf(config), signer: signerOf(config, shared.clock) }),
  settings: (config) => ({ jwt: jwt.jwtSettings(config) }),
  routes: (ctx) => routeFilesOf(jwksRoutes(ctx.jwks ?? { keys: [] })),
  operations: [...jwksOperations],
};
