/*
 * Open-connection gauge for /metrics: counted on libmicrohttpd's connection
 * start/close notifications, so a connection that MHD has not reaped yet (a
 * client gone without MHD noticing) shows here and in the per-IP limit alike.
 */
#include "http.h"

void fw_conn_notify(void *cls, struct MHD_Connection *conn, void **socket_ctx,
		    enum MHD_ConnectionNotificationCode code)
{
	struct fw_server *srv = cls;

	(void)conn;
	(void)socket_ctx;
	if (code == MHD_CONNECTION_NOTIFY_STARTED)
		atomic_fetch_add(&srv->conns_open, 1);
	else if (code == MHD_CONNECTION_NOTIFY_CLOSED)
		atomic_fetch_sub(&srv->conns_open, 1);
}
