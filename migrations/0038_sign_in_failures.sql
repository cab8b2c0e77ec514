-- 0038_sign_in_failures: the per-account lockout of password sign-ins (LOCKOUT_*; the reference has none).
--
-- One row per sign-in identifier that took a wrong password lately, keyed by the SHA-256 of
-- "email:<address>" or "phone:<digits>" — whether or not an account has it, so that the lockout
-- tells nothing about who is registered, and no address is stored in the clear. Every instance
-- counts here: a failure is counted under the row's lock, so parallel attempts count one after
-- another and exactly one of them starts a lock. A right password, a proven address or an admin's
-- unlock removes the row; the cleanup removes rows past `expires_at` (the count forgotten and no
-- lock holding).
create table {{namespace}}.sign_in_failures (
  key text not null check (char_length(key) = 64),
  failed_attempts integer not null,
  last_failed_at timestamptz,
  locked_until timestamptz,
  expires_at timestamptz not null,
  constraint sign_in_failures_pkey primary key (key)
);

create index sign_in_failures_expires_at_idx on {{namespace}}.sign_in_failures (expires_at);

alter table {{namespace}}.sign_in_failures enable row level security;
