-- 0003_messages: what email and SMS flows need.
--
-- otp_hash: a one-time token is accepted either as the link's token (token_hash holds the SHA-256 of
-- it) or as the code typed by the user; otp_hash holds the SHA-256 of relates_to || code. Neither
-- secret is stored in the clear.
alter table {{namespace}}.one_time_tokens
  add column otp_hash text not null default '';
create index one_time_tokens_relates_to_otp_idx on {{namespace}}.one_time_tokens (relates_to, otp_hash);

-- Magic links have their own resend gap (60 s), separate from recovery mails (SMTP_MAX_FREQUENCY).
alter table {{namespace}}.users add column magic_link_sent_at timestamptz;

-- Counters shared by every instance, in fixed windows: the hourly cap on emails (RATE_LIMIT_EMAIL_SENT).
create table {{namespace}}.send_quota (
  key text not null,
  window_start timestamptz not null,
  count integer not null,
  constraint send_quota_pkey primary key (key, window_start)
);
alter table {{namespace}}.send_quota enable row level security;
