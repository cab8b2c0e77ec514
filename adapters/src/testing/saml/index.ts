export { encryptAssertion } from "./encrypt.js";
export { type HttpsDocumentServer, startHttpsDocumentServer } from "./https-metadata.js";
export { type IdpKey, type ResponseSpec, responseXml, signedResponse } from "./saml-response.js";
export { signElement } from "./signing.js";
export {
  type Answer,
  idpMetadataXml,
  newIdpKey,
  postedForm,
  type ReceivedRequest,
  startTestIdp,
  type TestIdp,
} from "./test-idp.js";
