-- 0012 (issue 31): a watched series (the history `watch` measures, commit by
-- commit) is decided commit by commit under a bounded window: a commit's
-- verdicts depend only on the commits up to it, so they never move when the
-- history grows (README "Deciding"). Set by a run document's
-- `series.watched`, never cleared by one that lacks it.
ALTER TABLE series ADD COLUMN watched INTEGER NOT NULL DEFAULT 0 CHECK (watched IN (0, 1));
