-- 0004_token_attempts: wrong codes are counted per token, and a token that has seen too many is
-- deleted, so a 6-digit code cannot be guessed by trying them all while it is valid.
alter table {{namespace}}.one_time_tokens
  add column failed_attempts integer not null default 0;
