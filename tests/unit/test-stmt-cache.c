/*
 * The statement cache (schema/stmt-cache.c): a statement handed back is
 * reused with its bindings cleared, one in use is never handed out twice, an
 * unmarked statement with the same text is never taken, ingest keeps its
 * statements between documents, and fw_db_close() leaves nothing open.
 */
#include <stdlib.h>
#include <unistd.h>
#include "tap.h"
#include "fw-db.h"
#include "ingest.h"

#define Q FW_CACHED("SELECT ?1")

static int stmt_count(sqlite3 *db)
{
	int n = 0;

	for (sqlite3_stmt *st = NULL; (st = sqlite3_next_stmt(db, st));)
		n++;
	return n;
}

int main(void)
{
	char path[] = "/tmp/fw-stmt-XXXXXX";
	struct strbuf err = STRBUF_INIT, doc = STRBUF_INIT;
	struct fw_ingest_info info;
	sqlite3_stmt *a, *b, *plain = NULL;
	sqlite3 *db;
	int fd = mkstemp(path), n1;

	close(fd);
	db = fw_db_open(path, &err);
	ok(db != NULL, "DB opened");
	if (!db)
		return done_testing();

	a = fw_stmt_get(db, Q);
	ok(a != NULL, "first get prepares");
	sqlite3_bind_int(a, 1, 42);
	ok(sqlite3_step(a) == SQLITE_ROW && sqlite3_column_int(a, 0) == 42, "it runs");
	b = fw_stmt_get(db, Q);
	ok(b != NULL && b != a, "while the first is out (stepped), a second get prepares another");
	fw_stmt_done(b);
	fw_stmt_done(a);
	{
		sqlite3_stmt *c = fw_stmt_get(db, Q), *d = fw_stmt_get(db, Q);

		ok((c == a || c == b) && (d == a || d == b) && c != d,
		   "handed back: both reused, and one not yet stepped is never handed out twice");
		fw_stmt_done(c);
		fw_stmt_done(d);
	}
	a = fw_stmt_get(db, Q);
	ok(sqlite3_step(a) == SQLITE_ROW && sqlite3_column_type(a, 0) == SQLITE_NULL,
	   "a reused statement has its old bindings cleared");
	fw_stmt_done(a);

	/* Some other code's statement, idle, with the same SQL apart from the mark. */
	sqlite3_prepare_v2(db, "SELECT ?1", -1, &plain, NULL);
	a = fw_stmt_get(db, Q);
	ok(a != NULL && a != plain, "another code's statement of the same text is not taken");
	fw_stmt_done(a);
	ok(fw_stmt_get(db, "SELECT ?1") == NULL, "unmarked SQL is refused");
	is_int(stmt_count(db), 3, "three statements on the connection (two cached, one plain)");
	sqlite3_finalize(plain);

	/* Ingest: a second document prepares nothing new. */
	strbuf_read_file(&doc, "schema/examples/run-ok.json", 1 << 20);
	fw_ingest(db, doc.buf, doc.len, &info);
	is_int(info.status, FW_INGEST_STORED, "example document stored");
	n1 = stmt_count(db);
	fw_ingest(db, doc.buf, doc.len, &info);
	is_int(info.status, FW_INGEST_DUPLICATE, "same document again: duplicate");
	is_int(stmt_count(db), n1, "no statement added by the second ingest");
	ok(n1 > 10, "ingest's statements stay with the connection");

	is_int(fw_db_close(db), SQLITE_OK, "fw_db_close closes a connection with cached statements");
	unlink(path);
	strbuf_release(&err);
	strbuf_release(&doc);
	return done_testing();
}
