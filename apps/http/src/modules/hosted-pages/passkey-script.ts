/**
 * `passkey.js`, the hosted sign-in page's only script (served by authsvc: `script-src 'self'`): the
 * passkey button asks `/passkeys/authentication/options` for a ceremony, lets the browser sign it
 * (`navigator.credentials.get`), then posts the answer in the page's own form, which the server
 * verifies. Without WebAuthn the button stays hidden and a line says so.
 */
export const PASSKEY_SCRIPT = `"use strict";
(function () {
  var form = document.getElementById("passkey-form");
  if (!form) return;
  var unavailable = document.getElementById("passkey-unavailable");
  if (!window.PublicKeyCredential || !navigator.credentials) {
    if (unavailable) unavailable.hidden = false;
    return;
  }
  form.hidden = false;
  var button = document.getElementById("passkey");
  var problem = document.getElementById("passkey-problem");
  function text(buffer) {
    var bytes = new Uint8Array(buffer), out = "";
    for (var i = 0; i < bytes.length; i++) out += String.fromCharCode(bytes[i]);
    return btoa(out).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  }
  function bytes(value) {
    var b64 = value.replace(/-/g, "+").replace(/_/g, "/");
    while (b64.length % 4) b64 += "=";
    var raw = atob(b64), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }
  function fail(message) {
    problem.textContent = message;
    problem.hidden = false;
    button.disabled = false;
    button.focus();
  }
  button.addEventListener("click", function () {
    button.disabled = true;
    problem.hidden = true;
    fetch(form.getAttribute("data-api") + "/passkeys/authentication/options", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
      credentials: "omit",
    })
      .then(function (response) {
        return response.json().then(function (body) {
          if (!response.ok) throw new Error(body.msg || body.message || "The passkey sign-in could not start.");
          return body;
        });
      })
      .then(function (ceremony) {
        var options = ceremony.options;
        var publicKey = Object.assign({}, options, { challenge: bytes(options.challenge) });
        if (options.allowCredentials)
          publicKey.allowCredentials = options.allowCredentials.map(function (c) {
            return Object.assign({}, c, { id: bytes(c.id) });
          });
        return navigator.credentials.get({ publicKey: publicKey }).then(function (credential) {
          var r = credential.response;
          var answer = {
            id: credential.id,
            rawId: text(credential.rawId),
            type: credential.type,
            authenticatorAttachment: credential.authenticatorAttachment || undefined,
            clientExtensionResults: credential.getClientExtensionResults(),
            response: {
              clientDataJSON: text(r.clientDataJSON),
              authenticatorData: text(r.authenticatorData),
              signature: text(r.signature),
              userHandle: r.userHandle ? text(r.userHandle) : undefined,
            },
          };
          form.elements.challenge_id.value = ceremony.challenge_id;
          form.elements.credential.value = JSON.stringify(answer);
          form.submit();
        });
      })
      .catch(function (error) {
        fail(error && error.name === "NotAllowedError" ? button.getAttribute("data-cancelled") : String(error.message || error));
      });
  });
})();
`;
