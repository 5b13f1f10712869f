#!/usr/bin/env python3
"""One oversized request on loopback: bigreq.py PORT KIND N, KIND one of
path, query, header (a path, query string or one header line of N bytes) or
params, headers (N query parameters "pI=I", or N header lines "X-HI: I").
Prints one JSON line: the status ("closed" when there was no answer), whether
the answer had Content-Type, Content-Security-Policy and X-Content-Type-Options,
and whether the server closed the connection afterwards. send() is the same
for other tests (tests/lib/crawl-classes.py)."""
import json, socket, sys


def request_bytes(kind, size, name=lambda i: f"p{i}"):
    path, extra = "/healthz", ""
    if kind == "path":
        path = "/" + "a" * size
    elif kind == "query":
        path = "/?x=" + "a" * size  # a page: an API route would refuse the unknown x
    elif kind == "params":
        path = "/?" + "&".join(f"{name(i)}={i}" for i in range(size))
    elif kind == "headers":
        extra = "".join(f"X-{name(i).upper()}: {i}\r\n" for i in range(size))
    else:
        extra = "X-Big: " + "a" * size + "\r\n"
    return f"GET {path} HTTP/1.1\r\nHost: x\r\n{extra}\r\n".encode()


def send(host, port, req, wait_close=3):
    """Sends req; the answer's status ("closed": none), its security headers, and whether the server hung up."""
    s = socket.create_connection((host, port), timeout=10)
    try:
        s.sendall(req)
    except OSError:
        pass  # the server may hang up before reading it all
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    head = data.split(b"\r\n\r\n")[0].decode("latin-1").lower()
    lines = head.split("\r\n")
    out = {"status": lines[0].split(" ")[1] if lines[0].startswith("http/") else "closed",
           "content_type": any(l.startswith("content-type:") for l in lines[1:]),
           "csp": any(l.startswith("content-security-policy:") for l in lines[1:]),
           "nosniff": any(l.startswith("x-content-type-options: nosniff") for l in lines[1:])}
    closed = False
    try:
        s.settimeout(wait_close)
        while wait_close:
            chunk = s.recv(65536)
            if not chunk:
                closed = True
                break
    except socket.timeout:
        pass
    except OSError:
        closed = True
    s.close()
    out["closed"] = closed
    return out


if __name__ == "__main__":
    port, kind, size = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    print(json.dumps(send("127.0.0.1", port, request_bytes(kind, size))))
