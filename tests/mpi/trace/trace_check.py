#!/usr/bin/env python3
"""Runs a traced MPI job and checks what the trace components made of it against what the program
logged (trace_log.h).

  trace_check.py --dir DIR --otf2-print PATH [--monitor] -- LAUNCHER... PROGRAM [ARGS, {dir} ...]

The job runs with --mca trace otf2 (otf2,monitor with --monitor), set through the TESSERA_MCA_*
environment so that every launcher passes it on, and gets DIR as its argument ({dir}, or appended: the
logs go there, the archive to DIR/otf2, the monitor's counts to DIR/monitor.<rank>). It must exit 0.
Then:
  - otf2-print must read the archive (exit 0);
  - each location's records: exactly the point-to-point events the rank logged (kind, peer as an
    MPI_COMM_WORLD rank found through the communicator's group and the COMM_LOCATIONS group, tag,
    bytes, communicator name), one MpiIsendComplete per isend, one MpiIrecvRequest per nonblocking
    receive, one MpiRequestCancelled per cancelled one, request ids paired, the collectives (operation,
    root, bytes sent and received), balanced Enter/Leave, times in order;
  - each communicator the program named has a definition whose group holds its ranks in order;
  - the monitor's matrix row of each rank (--monitor): messages and bytes per peer, as sent;
  - with --tool PATH, what the analysis tool tessera-trace makes of the archive (tool_check.py): the
    matched messages, the missing-receive warnings, the matrix, message by message as logged.
With --expect-no-archive REGEX the job must still exit 0, say REGEX, and leave no archive.
"""

import argparse
import collections
import csv
import os
import re
import shutil
import subprocess
import sys

import tool_check


def fail(msg):
    print(f"trace_check: FAILED: {msg}", file=sys.stderr)
    sys.exit(1)


def run_job(args):
    env = dict(os.environ)
    env["TESSERA_MCA_trace"] = "otf2,monitor" if args.monitor else "otf2"
    env["TESSERA_MCA_trace_otf2_dir"] = args.otf2_dir
    env["TESSERA_MCA_trace_monitor_filename"] = os.path.join(args.dir, "monitor.%r")
    # The log directory goes where the command says {dir}, else last.
    cmd = [a.replace("{dir}", args.dir) for a in args.command]
    if not any("{dir}" in a for a in args.command):
        cmd.append(args.dir)
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=args.timeout)
    out = p.stdout.decode(errors="replace")
    if p.returncode != 0:
        fail(f"{' '.join(cmd)} exited {p.returncode}:\n{out[-3000:]}")
    return out


def otf2_print(args, *flags):
    p = subprocess.run([args.otf2_print, *flags, os.path.join(args.otf2_dir, "traces.otf2")],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        fail(f"otf2-print {' '.join(flags)} exited {p.returncode}: {p.stderr.decode(errors='replace')[-2000:]}")
    return p.stdout.decode(errors="replace")


def field(line, name, pattern=r"(-?\d+)"):
    m = re.search(name + r": " + pattern, line)
    return m.group(1) if m else None


class Definitions:
    """Communicators, their groups and the COMM_LOCATIONS group, from otf2-print -G."""

    def __init__(self, text):
        self.groups, self.comms, self.locations_group = {}, {}, None
        self.locations = set()
        for line in text.splitlines():
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "LOCATION":
                self.locations.add(int(parts[1]))
            elif parts[0] == "GROUP":
                gid = int(parts[1])
                members_text = line.split("Members:", 1)[1] if "Members:" in line else ""
                if "Type: COMM_LOCATIONS" in line:
                    self.locations_group = [int(x) for x in re.findall(r"<(\d+)>", members_text)]
                else:
                    self.groups[gid] = [int(x) for x in re.findall(r"(\d+) \(", members_text)]
            elif parts[0] == "COMM":
                name = re.search(r'Name: "([^"]*)"', line).group(1)
                group = int(re.search(r'Group: "[^"]*" <(\d+)>', line).group(1))
                self.comms[int(parts[1])] = (name, group)
        if self.locations_group is None:
            fail("no COMM_LOCATIONS group in the global definitions")

    def world_ranks(self, comm):
        name, group = self.comms[comm]
        return [self.locations_group[i] for i in self.groups[group]]

    def resolve(self, comm, rank):
        """(communicator name, MPI_COMM_WORLD rank) of a communicator-local rank."""
        if comm not in self.comms:
            fail(f"an event names communicator {comm}, which has no definition")
        ranks = self.world_ranks(comm)
        if not 0 <= rank < len(ranks):
            fail(f"rank {rank} is outside communicator {self.comms[comm][0]} of {len(ranks)} ranks")
        return self.comms[comm][0], ranks[rank]


def parse_events(text, defs):
    """Per location: point-to-point events, collective ends, request pairing, counts."""
    per = collections.defaultdict(lambda: {"p2p": collections.Counter(), "coll": collections.Counter(),
                                           "count": collections.Counter(), "stack": [], "time": 0,
                                           "open_isend": set(), "open_irecv": set()})
    total = 0
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 3 or not parts[1].isdigit():
            continue
        kind, loc, time = parts[0], int(parts[1]), int(parts[2])
        s = per[loc]
        total += 1
        if time < s["time"]:
            fail(f"location {loc}: {kind} at {time} goes back in time")
        s["time"] = time
        s["count"][kind] += 1
        request = field(line, "Request")
        if kind == "ENTER":
            s["stack"].append(re.search(r'Region: "(\w+)"', line).group(1))
        elif kind == "LEAVE":
            region = re.search(r'Region: "(\w+)"', line).group(1)
            if not s["stack"] or s["stack"].pop() != region:
                fail(f"location {loc}: LEAVE {region} does not close the region entered last")
        elif kind in ("MPI_SEND", "MPI_ISEND", "MPI_RECV", "MPI_IRECV"):
            peer = int(field(line, "Receiver" if "SEND" in kind else "Sender"))
            comm = int(re.search(r'Communicator: "[^"]*" <(\d+)>', line).group(1))
            name, world = defs.resolve(comm, peer)
            s["p2p"][(kind, world, int(field(line, "Tag")), int(field(line, "Length")), name)] += 1
            if kind == "MPI_ISEND":
                s["open_isend"].add(request)
            elif kind == "MPI_IRECV":
                if request not in s["open_irecv"]:
                    fail(f"location {loc}: MPI_IRECV of request {request} without its MPI_IRECV_REQUEST")
                s["open_irecv"].discard(request)
        elif kind == "MPI_ISEND_COMPLETE":
            if request not in s["open_isend"]:
                fail(f"location {loc}: MPI_ISEND_COMPLETE of request {request}, which is no open isend")
            s["open_isend"].discard(request)
        elif kind == "MPI_IRECV_REQUEST":
            s["open_irecv"].add(request)
        elif kind == "MPI_REQUEST_CANCELLED":
            if request not in s["open_irecv"] and request not in s["open_isend"]:
                fail(f"location {loc}: MPI_REQUEST_CANCELLED of request {request}, which is not open")
            s["open_irecv"].discard(request)
            s["open_isend"].discard(request)
        elif kind == "MPI_COLLECTIVE_END":
            comm = int(re.search(r'Communicator: "[^"]*" <(\d+)>', line).group(1))
            root = field(line, "Root", r"(\w+)")
            key = (field(line, "Operation", r"(\w+)"), -1 if root in (None, "NONE", "UNDEFINED") else int(root),
                   int(field(line, "Sent")), int(field(line, "Received")), defs.comms[comm][0])
            s["coll"][key] += 1
    for loc, s in per.items():
        if s["stack"]:
            fail(f"location {loc}: regions left open at the end: {s['stack']}")
    return per, total


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def expected_of(rank, logdir):
    e = {"p2p": collections.Counter(), "coll": collections.Counter(), "count": collections.Counter(),
         "sent": collections.Counter(), "sent_bytes": collections.Counter()}
    kinds = {"send": "MPI_SEND", "isend": "MPI_ISEND", "recv": "MPI_RECV", "irecv": "MPI_IRECV"}
    for row in read_csv(os.path.join(logdir, f"messages.{rank}.csv")):
        ev = row["event"]
        if ev == "cancelled":
            e["count"]["MPI_IRECV_REQUEST"] += 1
            e["count"]["MPI_REQUEST_CANCELLED"] += 1
            continue
        key = (kinds[ev], int(row["peer"]), int(row["tag"]), int(row["bytes"]), row["comm"])
        e["p2p"][key] += 1
        if ev == "isend":
            e["count"]["MPI_ISEND_COMPLETE"] += 1
        if ev == "irecv":
            e["count"]["MPI_IRECV_REQUEST"] += 1
        if ev in ("send", "isend"):
            e["sent"][int(row["peer"])] += 1
            e["sent_bytes"][int(row["peer"])] += int(row["bytes"])
    for row in read_csv(os.path.join(logdir, f"collectives.{rank}.csv")):
        e["coll"][(row["op"], int(row["root"]), int(row["sent"]), int(row["received"]), row["comm"])] += 1
    e["count"]["MPI_COLLECTIVE_BEGIN"] = e["count"]["MPI_COLLECTIVE_END"] = sum(e["coll"].values())
    return e


# Records whose number per location follows from the logs (zero included).
COUNTED = ("MPI_ISEND_COMPLETE", "MPI_IRECV_REQUEST", "MPI_REQUEST_CANCELLED", "MPI_COLLECTIVE_BEGIN",
           "MPI_COLLECTIVE_END")


def check_monitor(rank, logdir, e):
    path = os.path.join(logdir, f"monitor.{rank}")
    if not os.path.exists(path):
        fail(f"the monitor wrote no {path}")
    got, got_bytes = collections.Counter(), collections.Counter()
    for line in open(path):
        parts = line.split()
        if parts and parts[0] == "world":
            got[int(parts[1])] += int(parts[2])
            got_bytes[int(parts[1])] += int(parts[3])
    if got != e["sent"] or got_bytes != e["sent_bytes"]:
        fail(f"rank {rank}: the monitor counts messages {dict(got)}, bytes {dict(got_bytes)}; "
             f"the program sent {dict(e['sent'])}, bytes {dict(e['sent_bytes'])}")


def check_comms(rank, logdir, defs):
    for row in read_csv(os.path.join(logdir, f"comms.{rank}.csv")):
        want = [int(x) for x in row["world_ranks"].split()]
        found = [c for c, (name, _) in defs.comms.items() if name == row["name"] and defs.world_ranks(c) == want]
        if not found:
            have = {defs.comms[c][0]: defs.world_ranks(c) for c in defs.comms}
            fail(f"rank {rank}: no communicator '{row['name']}' of world ranks {want} is defined (have {have})")


def diff(what, want, got):
    missing, extra = want - got, got - want
    return f"{what}: missing {dict(missing)}, unexpected {dict(extra)}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--otf2-print", default="otf2-print")
    ap.add_argument("--monitor", action="store_true")
    ap.add_argument("--tool", metavar="PATH", help="tessera-trace: check its analysis of the archive too")
    ap.add_argument("--expect-no-archive", metavar="REGEX")
    ap.add_argument("--otf2-dir", help="where the archive goes (default: DIR/otf2)")
    ap.add_argument("--expect-flushes", action="store_true",
                    help="the event buffers must have been written out during the run (BUFFER_FLUSH records)")
    ap.add_argument("--timeout", type=float, default=240)
    ap.add_argument("--recheck", action="store_true", help="check DIR as an earlier run left it, run nothing")
    ap.add_argument("command", nargs="*")
    args = ap.parse_args()
    args.otf2_dir = args.otf2_dir or os.path.join(args.dir, "otf2")
    out = ""
    if not args.recheck:
        if not args.command:
            ap.error("the job's command is missing")
        shutil.rmtree(args.dir, ignore_errors=True)
        os.makedirs(args.dir)
        out = run_job(args)
    if args.expect_no_archive:
        if not re.search(args.expect_no_archive, out):
            fail(f"the job did not say /{args.expect_no_archive}/:\n{out[-3000:]}")
        if os.path.exists(os.path.join(args.otf2_dir, "traces.otf2")):
            fail("an archive was written")
        print("trace_check: no archive, and the job said why: ok")
        return
    defs = Definitions(otf2_print(args, "-G"))
    events = otf2_print(args)
    per, total = parse_events(events, defs)
    if args.expect_flushes and "BUFFER_FLUSH" not in events:
        fail("no BUFFER_FLUSH record: the event buffer was never written out during the run")
    ranks = sorted(int(f.split(".")[1]) for f in os.listdir(args.dir) if f.startswith("messages."))
    if sorted(defs.locations) != ranks:
        fail(f"locations {sorted(defs.locations)} for ranks {ranks}")
    checked = 0
    for r in ranks:
        e = expected_of(r, args.dir)
        got = per[r]
        if got["p2p"] != e["p2p"]:
            fail(f"rank {r}: " + diff("point-to-point events", e["p2p"], got["p2p"]))
        if got["coll"] != e["coll"]:
            fail(f"rank {r}: " + diff("collectives", e["coll"], got["coll"]))
        for kind in COUNTED:
            if got["count"][kind] != e["count"][kind]:
                fail(f"rank {r}: {got['count'][kind]} {kind} records, {e['count'][kind]} expected")
        if got["open_isend"] or got["open_irecv"]:
            fail(f"rank {r}: requests never completed in the trace: {got['open_isend'] | got['open_irecv']}")
        check_comms(r, args.dir, defs)
        if args.monitor:
            check_monitor(r, args.dir, e)
        checked += sum(e["p2p"].values()) + sum(e["coll"].values())
    print(f"trace_check: {len(ranks)} locations, {total} records, {checked} logged events found: ok")
    if args.tool:
        logs = {r: read_csv(os.path.join(args.dir, f"messages.{r}.csv")) for r in ranks}
        try:
            account = tool_check.check(args.tool, os.path.join(args.otf2_dir, "traces.otf2"), logs,
                                       os.path.join(args.dir, "tool_messages.csv"))
        except tool_check.CheckFailed as e:
            fail(f"tessera-trace: {e}")
        print(f"trace_check: tessera-trace finds {account}, as logged: ok")


if __name__ == "__main__":
    main()
