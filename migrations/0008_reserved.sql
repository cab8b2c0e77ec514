-- Reserved: migration 0008 is taken by a change being made at the same time (the numbers must run
-- without gap). This file goes when that migration lands.
select 1;
