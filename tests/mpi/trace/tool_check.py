"""The analysis tool's view of a traced job against what the program logged (trace_log.h): trace_check.py
calls check() after its own checks of the archive.

tessera-trace runs once on the archive with --json --messages and --csv. Required:
  - the matched messages, one by one: (sender, receiver as MPI_COMM_WORLD ranks, communicator name, tag,
    bytes sent, bytes received) are the logged sends that were received paired with the logged receives,
    the i-th send of a (sender, receiver, communicator, tag) with the i-th receive (MPI does not let
    messages of one key overtake each other); the CSV holds the same list as the JSON;
  - the warnings: exactly one missing-receive per send logged as left unreceived (sender, receiver,
    communicator, tag, bytes), no other kind — a cancelled receive is neither a message nor a warning;
  - the matrix and the per-pair figures: the logged messages and bytes per (sender, receiver);
  - the record counts of the summary: one per logged event of that kind.
"""

import collections
import csv
import json
import re
import subprocess

SENDS = ("send", "isend")
RECEIVES = ("recv", "irecv")
# The summary's record counts, by the log's event names.
RECORD_OF_EVENT = {"send": "MpiSend", "isend": "MpiIsend", "recv": "MpiRecv", "irecv": "MpiIrecv",
                   "cancelled": "MpiRequestCancelled"}
MISSING = re.compile(r"send (\d+) -> (\d+), comm (\d+), tag (-?\d+), (\d+) bytes at ")


class Expected:
    """What the logs say the tool must find."""

    def __init__(self, logs):
        """logs: {rank: [rows of messages.<rank>.csv as dicts]}."""
        sends, receives = collections.defaultdict(list), collections.defaultdict(list)
        self.unreceived = collections.Counter()
        self.records = collections.Counter()
        for rank, rows in logs.items():
            for row in rows:
                ev = row["event"]
                self.records[RECORD_OF_EVENT[ev]] += 1
                if ev in SENDS:
                    key = (rank, int(row["peer"]), row["comm"], int(row["tag"]))
                    if row["received"] == "1":
                        sends[key].append(int(row["bytes"]))
                    else:
                        self.unreceived[key + (int(row["bytes"]),)] += 1
                elif ev in RECEIVES:
                    receives[(int(row["peer"]), rank, row["comm"], int(row["tag"]))].append(int(row["bytes"]))
        self.messages = collections.Counter()
        for key in sends.keys() | receives.keys():
            s, r = sends.get(key, []), receives.get(key, [])
            if len(s) != len(r):
                raise CheckFailed(f"the logs disagree: {len(s)} sends received and {len(r)} receives of "
                                  f"(sender, receiver, comm, tag) {key}")
            for sent, received in zip(s, r):
                self.messages[key + (sent, received)] += 1
        self.matrix = collections.Counter()
        self.matrix_bytes = collections.Counter()
        self.received_bytes = collections.Counter()
        for (sender, receiver, _, _, sent, received), n in self.messages.items():
            self.matrix[(sender, receiver)] += n
            self.matrix_bytes[(sender, receiver)] += n * sent
            self.received_bytes[(sender, receiver)] += n * received


class CheckFailed(Exception):
    pass


def diff(what, want, got):
    return f"{what}: missing {dict(want - got)}, unexpected {dict(got - want)}"


def run_tool(tool, archive, csv_path):
    # Every example kept: each warning is compared, not only counted.
    cmd = [tool, "--json", "--messages", "--examples", "1000000", "--csv", csv_path, archive]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise CheckFailed(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.decode(errors='replace')[-2000:]}")
    return json.loads(p.stdout)


def check_messages(doc, names, want, csv_path):
    def key(m, comm):
        return (m["sender"], m["receiver"], names[comm], m["tag"], m["bytes_sent"], m["bytes_received"])

    got = collections.Counter(key(m, m["comm"]) for m in doc["messages"])
    if got != want.messages:
        raise CheckFailed(diff("matched messages (sender, receiver, comm, tag, bytes sent, received)",
                               want.messages, got))
    with open(csv_path, newline="") as f:
        rows = [{k: int(v) if k in ("sender", "receiver", "comm", "tag", "bytes_sent", "bytes_received")
                 else v for k, v in row.items()} for row in csv.DictReader(f)]
    from_csv = collections.Counter(key(row, row["comm"]) for row in rows)
    if from_csv != got:
        raise CheckFailed(diff("the CSV's messages against the JSON's", got, from_csv))
    for m in doc["messages"]:
        if not m["latency"] > 0 or abs(m["recv_time"] - m["send_time"] - m["latency"]) > 1e-8:
            raise CheckFailed(f"message {m}: latency is not its positive receive time minus send time")


def check_warnings(doc, names, want):
    kinds = doc["warnings"]["kinds"]
    other = {k: v["count"] for k, v in kinds.items() if k != "missing-receive"}
    if other:
        raise CheckFailed(f"unexpected warnings {other}: {[kinds[k]['examples'] for k in other]}")
    missing = kinds.get("missing-receive", {"count": 0, "examples": []})
    got = collections.Counter()
    for text in missing["examples"]:
        m = MISSING.match(text)
        if not m:
            raise CheckFailed(f"cannot read the missing-receive example '{text}'")
        s, r, comm, tag, nbytes = (int(x) for x in m.groups())
        got[(s, r, names[comm], tag, nbytes)] += 1
    if missing["count"] != sum(want.unreceived.values()) or got != want.unreceived:
        raise CheckFailed(f"{missing['count']} missing-receive warnings; " +
                          diff("sends left unreceived (sender, receiver, comm, tag, bytes)", want.unreceived, got))


def check_matrix(doc, want):
    n = doc["matrix"]["processes"]
    for what, table, expected in (("messages", doc["matrix"]["messages"], want.matrix),
                                  ("bytes", doc["matrix"]["bytes"], want.matrix_bytes)):
        got = collections.Counter({(s, r): table[s][r] for s in range(n) for r in range(n) if table[s][r]})
        if got != expected:
            raise CheckFailed(diff(f"matrix of {what} (sender, receiver)", expected, got))
    pairs = {(p["sender"], p["receiver"]): (p["messages"], p["bytes_sent"], p["bytes_received"])
             for p in doc["pairs"]}
    expected = {k: (want.matrix[k], want.matrix_bytes[k], want.received_bytes[k]) for k in want.matrix}
    if pairs != expected:
        raise CheckFailed(f"pairs (messages, bytes sent, received): {pairs}, expected {expected}")


def check_summary(doc, want):
    summary = doc["summary"]
    for record in RECORD_OF_EVENT.values():
        if summary["records"][record] != want.records[record]:
            raise CheckFailed(f"the summary counts {summary['records'][record]} {record} records; "
                              f"the programs logged {want.records[record]}")
    if summary["messages"] != sum(want.messages.values()):
        raise CheckFailed(f"the summary counts {summary['messages']} messages, "
                          f"{sum(want.messages.values())} expected")


def check(tool, archive, logs, csv_path):
    """Returns a one-line account; raises CheckFailed."""
    doc = run_tool(tool, archive, csv_path)
    names = collections.defaultdict(lambda: "<undefined>", {c["id"]: c["name"] for c in doc["communicators"]})
    want = Expected(logs)
    check_summary(doc, want)
    check_messages(doc, names, want, csv_path)
    check_warnings(doc, names, want)
    check_matrix(doc, want)
    return (f"{sum(want.messages.values())} messages, {sum(want.unreceived.values())} missing-receive "
            f"warnings, {len(want.matrix)} matrix cells")
