-- 0035_oauth_authorization_dpop_jkt: an authorization request bound to a DPoP key (RFC 9449 §10).
--
-- The `dpop_jkt` parameter of /oauth/authorize, or the key of the DPoP proof a pushed request came
-- with: the JWK SHA-256 thumbprint (RFC 7638) of the key whose proof the code's exchange must carry.
-- Null for a request bound to no key.
alter table {{namespace}}.oauth_authorizations
  add column if not exists dpop_jkt text check (char_length(dpop_jkt) <= 128);
