#!/usr/bin/env python3
"""Valkey 9 atomic slot migration against a writer that never sends a write twice.

No slotgen. Each trial: three Valkey 9 primaries (no replicas) started on loopback, a fresh
cluster made with CLUSTER ADDSLOTSRANGE and MEET (as the tests' harness makes one), 900
keys in 200 scattered slots of node 0, then two jobs started one right after the other on
node 0, as `slotgen rebalance --apply` starts them (`CLUSTER MIGRATESLOTS SLOTSRANGE` of
every 10th slot to node 1, then of every 10th slot but 5 to node 2, each polled with
`CLUSTER GETSLOTMIGRATIONS` until `success`). One writer thread SETs a fresh value on
the owner of each key's slot, on a plain connection, throughout, and counts a write
acknowledged only on `OK`: a MOVED or TRYAGAIN reply means the server did not run the
command, so the writer resends it to the node named; a connection error ends the run; its
reads have no timeout (a paused write waits). Once every node agrees on the owners, every
key is read on the owner of its slot and compared with the last acknowledged value.

Usage: valkey9_asm_lost_writes.py SERVER [TRIALS] [SLOTS-A-JOB] [--wait] [--other-db N]
                                   [SERVER-OPTION...]
  --wait        wait until every node agrees on the owners between the two jobs
  --other-db N  the same key names in database N too (needs --cluster-databases > N),
                checked at the end for a value the writer wrote in database 0
  e.g. ... 20 100 --cluster-node-timeout 1000 --cluster-databases 4  (the tests' servers)
Prints a line per trial (and the servers' log lines of the migration when a write was
lost); exits 1 when an acknowledged write was lost.
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import redis


def free_port():
    # at most 55535: the cluster bus listens on the port + 10000
    while True:
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        if port <= 55535:
            return port


def start(server, tmp, extra):
    port = free_port()
    d = os.path.join(tmp, str(port))
    os.mkdir(d)
    p = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--cluster-enabled", "yes",
         "--cluster-config-file", "nodes.conf", "--dir", d, "--save", "", "--appendonly",
         "no", "--logfile", "log"] + extra,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(3000):
        try:
            redis.Redis(port=port).ping()
            return p, port, d
        except redis.ConnectionError:
            time.sleep(0.01)
    p.kill()
    p.wait()
    raise SystemExit(f"{server} did not start on port {port}")


def owner_map(con):
    owners = {}
    for first, last, node, *_ in con.execute_command("CLUSTER", "SLOTS"):
        for s in range(first, last + 1):
            owners[s] = node[1]
    return owners


def jobs(con):
    out = []
    for j in con.execute_command("CLUSTER", "GETSLOTMIGRATIONS"):
        j = dict(zip(j[::2], j[1::2])) if isinstance(j, list) else j
        out.append({k.decode(): (v.decode() if isinstance(v, bytes) else v)
                    for k, v in j.items()})
    return out


def migrate(con, ranges, target_id):
    """One job of `ranges` (first, last, first, last...), polled until it ends; its state
    and message."""
    before = {j["name"] for j in jobs(con)}
    con.execute_command("CLUSTER", "MIGRATESLOTS", "SLOTSRANGE", *ranges, "NODE", target_id)
    deadline = time.time() + 60
    while time.time() < deadline:
        mine = [j for j in jobs(con) if j["name"] not in before and j["operation"] == "EXPORT"]
        if mine and mine[0]["state"] in ("success", "failed", "cancelled"):
            return mine[0]["state"], mine[0]["message"]
        time.sleep(0.001)
    return "no end in 60 s", ""


def trial(server, width, extra, wait, number, other):
    """One fresh cluster, one move of two jobs under the writer; the writes lost."""
    tmp = tempfile.mkdtemp(prefix="asm-repro-")
    nodes = []
    try:
        for _ in range(3):
            nodes.append(start(server, tmp, extra))
        ports = [port for _, port, _ in nodes]
        cons = [redis.Redis(port=port) for port in ports]
        for con, (a, b) in zip(cons, [(0, 5460), (5461, 10922), (10923, 16383)]):
            con.execute_command("CLUSTER", "ADDSLOTSRANGE", a, b)
        for con in cons[1:]:
            con.execute_command("CLUSTER", "MEET", "127.0.0.1", ports[0])

        def agreed():
            maps = [owner_map(c) for c in cons]
            return len(maps[0]) == 16384 and all(m == maps[0] for m in maps)

        while not (agreed() and all(b"cluster_state:ok" in c.execute_command("CLUSTER", "INFO")
                                    for c in cons)):
            time.sleep(0.05)
        ids = [c.execute_command("CLUSTER", "MYID").decode() for c in cons]
        # the jobs' slots, scattered as a plan's are: every 10th slot of node 0 to node 1,
        # every 10th slot but 5 to node 2, `width` each
        to1 = list(range(0, 10 * width, 10))
        to2 = list(range(5, 10 * width, 10))
        moved = set(to1) | set(to2)
        keys, n = [], 0
        while len(keys) < 900:
            k = f"k{n}"
            if cons[0].execute_command("CLUSTER", "KEYSLOT", k) in moved:
                keys.append(k)
            n += 1
        slots = {k: cons[0].execute_command("CLUSTER", "KEYSLOT", k) for k in keys}
        for k in keys:
            cons[0].set(k, "initial")
        if other:
            # the same names in another database (of the same slots), never written again
            con = redis.Redis(port=ports[0], db=other)
            for k in keys:
                con.set(k, "other")
        acked, errors, count = {k: ("initial", ports[0]) for k in keys}, [], [0]
        stop, hold = threading.Event(), threading.Lock()

        def writer():
            by_port = {p: redis.Redis(port=p) for p in ports}
            owners = owner_map(cons[0])
            i = 0
            while not stop.is_set():
                k, v = keys[i % len(keys)], f"w{i}"
                port = owners[slots[k]]
                with hold:
                    while True:
                        try:
                            r = by_port[port].execute_command("SET", k, v)
                        except redis.ResponseError as e:
                            m = str(e)
                            if m.startswith("MOVED"):
                                port = int(m.split()[2].rsplit(":", 1)[1])
                                owners[slots[k]] = port
                                continue
                            if m.startswith("TRYAGAIN"):
                                time.sleep(0.001)
                                continue
                            errors.append(m)
                            return
                        except redis.ConnectionError as e:
                            errors.append(f"connection: {e}")
                            return
                        break
                    assert r is True or r == b"OK", r
                    acked[k] = (v, port)
                i += 1
                count[0] = i

        t = threading.Thread(target=writer)
        t.start()
        time.sleep(0.05)
        said = []
        for src, dst, chosen in [(0, 1, to1), (0, 2, to2)]:
            ranges = [x for s in chosen for x in (s, s)]
            state, message = migrate(cons[src], ranges, ids[dst])
            said.append(f"{src}->{dst} {state} {message}".strip())
            if state != "success":
                break
            if wait:
                while not agreed():
                    time.sleep(0.005)
        time.sleep(0.05)
        stop.set()
        t.join()
        deadline = time.time() + 30
        while not agreed() and time.time() < deadline:
            time.sleep(0.01)
        owners = owner_map(cons[0])
        lost = []
        for k, (v, port) in acked.items():
            got = redis.Redis(port=owners[slots[k]]).get(k)
            if got is None or got.decode() != v:
                lost.append((k, slots[k], v, port, owners[slots[k]], got))
        wrong = sorted(s for s in to1 if owners[s] != ports[1]) + \
            sorted(s for s in to2 if owners[s] != ports[2])
        # a write of database 0 that landed in the other database
        misplaced = []
        if other:
            for k in keys:
                got = redis.Redis(port=owners[slots[k]], db=other).get(k)
                if got != b"other":
                    misplaced.append((k, got))
        print(f"trial {number}: {'; '.join(said)}; {count[0]} writes acknowledged, "
              f"{len(lost)} not read back; slots not on their target: {len(wrong)}; "
              + (f"keys of database {other} holding a write made in database 0: "
                 f"{len(misplaced)}; " if other else "")
              + f"writer errors: {errors}", flush=True)
        for k, got in misplaced[:10]:
            print(f"  {k} in database {other} reads {got}")
        for k, slot, v, port, owner, got in lost[:10]:
            print(f"  {k} (slot {slot}) acknowledged {v} by port {port}; "
                  f"its owner {owner} reads {got}")
        if lost:
            for _, port, d in nodes:
                print(f"--- log of port {port}: the lines of the migration")
                for line in open(os.path.join(d, "log")):
                    low = line.lower()
                    if "migrat" in low or "epoch" in low or "slot" in low or "fail" in low:
                        print("  " + line.rstrip()[:300])
        return len(lost)
    finally:
        for p, _, _ in nodes:
            p.send_signal(signal.SIGTERM)
        for p, _, _ in nodes:
            p.wait()
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    args = sys.argv[1:]
    wait = "--wait" in args
    other = 0
    if "--other-db" in args:
        i = args.index("--other-db")
        other = int(args[i + 1])
        del args[i:i + 2]
    args = [a for a in args if a != "--wait"]
    server = args[0]
    trials = int(args[1]) if len(args) > 1 else 10
    width = int(args[2]) if len(args) > 2 else 100
    extra = args[3:]
    lost = [trial(server, width, extra, wait, i, other) for i in range(trials)]
    print(f"trials with an acknowledged write lost: {sum(1 for n in lost if n)} of {trials} "
          f"(writes lost: {lost})")
    return 1 if any(lost) else 0


if __name__ == "__main__":
    sys.exit(main())
