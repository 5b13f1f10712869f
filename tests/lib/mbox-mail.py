#!/usr/bin/env python3
"""Reads an mbox with Python's mailbox/email and prints the mail fields a run
document keeps, as gen-series.py's FW_GEN_MAIL JSON:
mbox-mail.py MBOX NAME... -> {"cover": {...}, "patches": {NAME: {...}}}
The non-cover messages, in order, are given the NAMEs. An independent reader
of the same mbox the collector parses in C (t2120 compares the two)."""
import email.policy, json, mailbox, re, sys

box = mailbox.mbox(sys.argv[1], factory=lambda f: email.message_from_binary_file(f, policy=email.policy.default))
names = iter(sys.argv[2:])
out = {"cover": {}, "patches": {}}
for msg in box:
    f = {}
    for key, hdr in (("message_id", "Message-ID"), ("from", "From"), ("to", "To"), ("cc", "Cc"), ("subject", "Subject")):
        v = msg.get_all(hdr)
        if v:
            f[key] = re.sub(r"\s+", " ", ", ".join(str(x) for x in v)).strip()
    if re.match(r"\[[^\]]*\b0/\d+\]", f.get("subject", "")):
        out["cover"] = {k: f[k] for k in ("message_id", "subject") if k in f}
    else:
        out["patches"][next(names)] = f
json.dump(out, sys.stdout, ensure_ascii=False)
