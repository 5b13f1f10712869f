-- 0009 (issue 28): foliowatch-run/2 refuses unknown fields, so a CI's own
-- data (a job URL, a runner pool, a build id) has one documented place, the
-- document's "extensions" object. It is kept with the run as canonical JSON
-- (keys sorted), NULL when the document has none.
ALTER TABLE runs ADD COLUMN extensions TEXT;
