#!/usr/bin/env python3
"""Checks a message written by `report --format email` with Python's email
parser. check-mail.py MSG EXPECT_JSON; EXPECT_JSON names what must hold:
{"in_reply_to": id or null, "subject": text, "to": [addr...], "cc": [addr...],
 "body": [regex...], "no_headers": [name...]}. Prints what is wrong, exit 1."""
import email, email.policy, json, re, sys

raw = open(sys.argv[1], "rb").read()
want = json.loads(sys.argv[2])
msg = email.message_from_bytes(raw, policy=email.policy.default)
bad = []
def check(cond, what):
    if not cond:
        bad.append(what)

head = raw.split(b"\n\n", 1)[0]
check(all(b < 0x80 for b in head), "a header holds non-ASCII bytes")
check(all(len(l) <= 998 for l in head.split(b"\n")), "a header line is longer than 998 (RFC 5322)")
check(not msg.defects, f"defects: {msg.defects}")
for h in ("From", "To", "Subject", "Date", "Message-ID", "MIME-Version", "Content-Type"):
    check(len(msg.get_all(h) or []) == 1, f"{h}: not exactly one")
check(re.fullmatch(r"<[^<>@\s]+@[^<>@\s]+>", str(msg["Message-ID"])) is not None, "Message-ID malformed")
check(msg.get_content_type() == "text/plain" and msg.get_content_charset() == "utf-8", "not text/plain utf-8")
check(str(msg["Subject"]) == want["subject"], f"Subject {str(msg['Subject'])!r} != {want['subject']!r}")
irt = want["in_reply_to"]
check(str(msg["In-Reply-To"]) == irt if irt else msg["In-Reply-To"] is None, f"In-Reply-To {msg['In-Reply-To']!r}")
check(str(msg["References"]) == irt if irt else msg["References"] is None, f"References {msg['References']!r}")
check([a.addr_spec for a in msg["To"].addresses] == want["to"], f"To {msg['To']!r}")
check([a.addr_spec for a in msg["Cc"].addresses] == want["cc"] if want.get("cc") else msg["Cc"] is None,
      f"Cc {msg['Cc']!r}")
for name in want.get("to_names", []):
    check(name in [a.display_name for a in msg["To"].addresses], f"To has no display name {name!r}")
for h in want.get("no_headers", []):
    check(msg[h] is None, f"header {h} is there")
body = msg.get_content()
check(all(len(l) < 80 for l in body.split("\n")), "a body line has 80 columns or more")
for rx in want.get("body", []):
    check(re.search(rx, body, re.M) is not None, f"body lacks /{rx}/")
for b in bad:
    print("check-mail:", b)
sys.exit(1 if bad else 0)
