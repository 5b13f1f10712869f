-- 0013 (issue 31): the decided rows of a cached analysis (what the regressions
-- page, the feeds and a regression's profile read) through an index of their
-- own. Read as a filter on the key's range they cost a scan of every row of
-- the analysis with its body: 3.6 GB at 10,000 commits for about a thousand
-- rows (the regressions page and the feeds 3.2-3.8 s on a cold server).
CREATE INDEX analysis_rows_decided ON analysis_rows(key, position, seq) WHERE decided = 1;
