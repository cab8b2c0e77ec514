-- 0027_oauth_device_authorization: a device's request (RFC 8628) is an authorization request too.
--
-- `POST /oauth/device_authorization` stores a pending authorization request with these columns
-- set: the SHA-256 of the device code the device polls with, the keyed MAC of the user code the user
-- types on the verification page (unique: the code names one request), the polling interval (it
-- grows at each `slow_down`, for every instance answering the device) and the last poll. The
-- consent page serves the request as any other once the user typed its code; approving it issues no
-- authorization code, and the first poll after it spends the request (`session_id`). Requests of
-- `/oauth/authorize` leave the columns null; the cleanup removes both kinds alike.
alter table {{namespace}}.oauth_authorizations
  add column if not exists device_code_hash text,
  add column if not exists user_code_hash text,
  add column if not exists poll_interval integer,
  add column if not exists last_polled_at timestamptz;

alter table {{namespace}}.oauth_authorizations
  add constraint oauth_authorizations_device_columns check (
    (device_code_hash is null and user_code_hash is null and poll_interval is null)
    or (device_code_hash is not null and user_code_hash is not null and poll_interval > 0)
  );

create unique index if not exists oauth_authorizations_device_code_hash_key
  on {{namespace}}.oauth_authorizations (device_code_hash) where device_code_hash is not null;
create unique index if not exists oauth_authorizations_user_code_hash_key
  on {{namespace}}.oauth_authorizations (user_code_hash) where user_code_hash is not null;
