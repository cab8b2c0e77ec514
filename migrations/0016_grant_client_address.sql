-- 0016_grant_client_address: the password and refresh-token grants take the client's address as their
-- last parameter (p_ip_address), for their audit entries (`login`, `token_refreshed`,
-- `token_revoked`), which recorded '' before. A function with other arguments is a new function: the old
-- ones are dropped here, and their files (functions/password_grant.sql, functions/refresh_token_grant.sql)
-- create the new ones right after the migrations, in the same transaction.
drop function {{namespace}}.password_grant(uuid, text, text, timestamptz, uuid, {{namespace}}.aal_level, jsonb, text, jsonb);
drop function {{namespace}}.refresh_token_grant(text, text, timestamptz, boolean, bigint, bigint, bigint, boolean);
