-- 0005_request_limits: per-IP request limits counted once for all instances. One row per limited
-- route family and client ("verify:203.0.113.7"): requests counted in the current window and the
-- window's end in epoch milliseconds. The layout is the one rate-limiter-flexible's Postgres
-- limiter reads and writes; rows an hour past their window are deleted by it.
create table {{namespace}}.request_limits (
  key varchar(255) primary key,
  points integer not null default 0,
  expire bigint
);
