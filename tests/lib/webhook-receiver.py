#!/usr/bin/env python3
"""A webhook receiver on loopback for tests/t1120-webhooks.sh.

webhook-receiver.py PORT LOG SECRET [FAILS]
Answers POSTs; each request is one JSON line in LOG: the event id header, the
body, whether X-Foliowatch-Signature is sha256=HMAC-SHA256(SECRET, body), and
the status it answered and when (t, unix seconds). The first FAILS requests for each event id get 500,
the next ones 200. Prints "ready" once listening (PORT 0: any, printed).
"""
import hashlib, hmac, json, sys, time
from http.server import BaseHTTPRequestHandler, HTTPServer

port, log, secret = int(sys.argv[1]), sys.argv[2], sys.argv[3].encode()
fails = int(sys.argv[4]) if len(sys.argv) > 4 else 0
seen = {}

class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        key = self.headers.get("X-Foliowatch-Event-Id", "")
        want = "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()
        got = self.headers.get("X-Foliowatch-Signature", "")
        seen[key] = seen.get(key, 0) + 1
        status = 500 if seen[key] <= fails else 200
        try:
            doc = json.loads(body)
        except ValueError:
            doc = None
        with open(log, "a") as f:
            f.write(json.dumps({"t": time.time(), "key": key, "sig_ok": hmac.compare_digest(want, got),
                                "status": status, "type_header": self.headers.get("X-Foliowatch-Event", ""),
                                "content_type": self.headers.get("Content-Type", ""), "body": doc}) + "\n")
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass

srv = HTTPServer(("127.0.0.1", port), Handler)
print("ready", srv.server_address[1], flush=True)
srv.serve_forever()
