-- 0005 belongs to branch s16hook (issue 16: outbox, webhooks). This
-- placeholder only keeps the numbering contiguous so that s16mail's 0006
-- builds on its own; it creates nothing. On merging, take s16hook's file
-- (an add/add conflict on this path is expected). A DB made by s16mail alone
-- lacks 0005's objects: a test or dev DB only.
SELECT 1;
