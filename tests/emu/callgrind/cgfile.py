#!/usr/bin/env python3
"""tests/emu/callgrind/cgfile.py — reads a callgrind.out file (format 1 as
kit-emu writes it: name compression, fi=/fe=, calls= lines, positions line
or instr line) and checks it against what the tests know.

  cgfile.py check FILE [EXPECT...]   the file's own sums: self costs add up to
      totals: and summary:; every EXPECT "caller>callee=N" holds (calls= summed
      over call sites, names as callgrind_annotate prints them without file;
      caller "*": from anywhere).
      "main>=PCT": main's inclusive cost (its callers' call costs) is at least
      PCT% of the total. "fn:EVENT=N": the function's self cost of EVENT.
  cgfile.py self FN FILE...   prints FN's self cost (first event; FN "*":
      every function's) summed over the files.
  cgfile.py incl FILE CALLER CALLEE   prints the inclusive Ir of CALLER's calls of
      CALLEE (first event), summed over call sites.
  cgfile.py annotate FILE PLAIN INCL   the per-function figures of
      callgrind_annotate's output (--threshold=100; plain and --inclusive=yes)
      equal the file's, computed as callgrind_annotate defines them.
"""
import collections
import os
import re
import sys


def parse(path):
    events = []
    positions = "line"
    names = {"fl": {}, "fn": {}, "ob": {}}
    self_cost = collections.defaultdict(lambda: collections.Counter())  # "file:fn" -> event -> n
    fn_file = {}
    calls = collections.Counter()  # (caller fn, callee fn) -> calls
    edge_cost = collections.Counter()  # (caller fn, callee fn) -> inclusive, first event
    call_cost = collections.defaultdict(lambda: collections.Counter())  # callee "file:fn" -> incl
    out_cost = collections.defaultdict(lambda: collections.Counter())  # caller "file:fn" -> its calls' costs
    totals = summary = None
    cur_file = cur_fn = cfile = cfn = None
    pending = 0
    jump_source = False  # the line after jump=/jcnd=: the jump's position

    pwd = os.getcwd() + "/"

    def name(kind, text):
        m = re.match(r"\((\d+)\)(?: (.*))?$", text)
        if not m:
            return text
        if m.group(2) is not None:
            # callgrind_annotate leaves out the current directory
            names[kind][m.group(1)] = m.group(2)[len(pwd):] if kind == "fl" and m.group(2).startswith(pwd) else m.group(2)
        return names[kind][m.group(1)]

    with open(path) as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):  # the header, to events:
        l = lines[i]
        i += 1
        if l.startswith("positions:"):
            positions = l.split(":", 1)[1].strip()
        if l.startswith("events:"):
            events = l.split()[1:]
            break
    for l in lines[i:]:
        if not l or l.startswith("#"):
            continue
        key, _, val = l.partition("=")
        if re.match(r"^(0x[0-9a-f]+|\d+)( |$)", l):
            if jump_source:
                jump_source = False
                continue
            parts = l.split()
            if positions == "instr line":
                parts = parts[1:]
            cost = [int(x) for x in parts[1:]]
            c = collections.Counter({events[k]: v for k, v in enumerate(cost)})
            if pending:
                callee = "%s:%s" % (cfile or cur_file, cfn)
                call_cost[callee].update(c)
                out_cost["%s:%s" % (cur_file, cur_fn)].update(c)
                calls[(cur_fn, cfn)] += pending
                edge_cost[(cur_fn, cfn)] += cost[0] if cost else 0
                pending, cfile = 0, None
            else:
                self_cost["%s:%s" % (cur_file, cur_fn)].update(c)
            continue
        if key == "fl":
            cur_file = name("fl", val)
        elif key in ("fi", "fe"):
            cur_file = name("fl", val)
        elif key == "fn":
            cur_fn = name("fn", val)
            fn_file.setdefault(cur_fn, cur_file)
        elif key in ("ob", "cob"):
            name("ob", val)
        elif key in ("cfi", "cfl"):
            cfile = name("fl", val)
        elif key == "cfn":
            cfn = name("fn", val)
        elif key in ("jump", "jcnd"):
            jump_source = True
        elif key == "calls":
            pending = int(val.split()[0])
        elif l.startswith("totals:"):
            totals = [int(x) for x in l.split()[1:]]
        elif l.startswith("summary:"):
            summary = [int(x) for x in l.split()[1:]]
        else:
            raise SystemExit("%s: unexpected line %r" % (path, l))
    parse.edge_cost = edge_cost
    return events, self_cost, calls, call_cost, out_cost, totals, summary


def check(path, expects):
    events, self_cost, calls, call_cost, out_cost, totals, summary = parse(path)
    bad = 0
    for k, e in enumerate(events):
        s = sum(c[e] for c in self_cost.values())
        if s != totals[k] or s != summary[k]:
            print("FAIL %s: self costs of %s sum to %d, totals %d, summary %d" % (path, e, s, totals[k], summary[k]))
            bad = 1
    by_fn = collections.Counter()
    for (caller, callee), n in calls.items():
        by_fn[(caller, callee)] += n
    for x in expects:
        m = re.match(r"^(.+)>(.+)=(\d+)$", x)
        if m:
            got = sum(n for (a, b), n in by_fn.items() if m.group(1) in ("*", a) and b == m.group(2))
            if got != int(m.group(3)):
                print("FAIL %s: %s calls %s %d times, expected %s" % (path, m.group(1), m.group(2), got, m.group(3)))
                bad = 1
            continue
        m = re.match(r"^(.+)>=(\d+)$", x)
        if m:
            incl = sum(c[events[0]] for n, c in call_cost.items() if n.endswith(":" + m.group(1)))
            if incl * 100 < int(m.group(2)) * totals[0]:
                print("FAIL %s: %s's inclusive %d is under %s%% of %d" % (path, m.group(1), incl, m.group(2), totals[0]))
                bad = 1
            continue
        m = re.match(r"^(.+):(\w+)=(\d+)$", x)
        if m:
            got = sum(c[m.group(2)] for n, c in self_cost.items() if n.split(":")[-1] == m.group(1))
            if got != int(m.group(3)):
                print("FAIL %s: %s's self %s is %d, expected %s" % (path, m.group(1), m.group(2), got, m.group(3)))
                bad = 1
            continue
        raise SystemExit("bad expectation %r" % x)
    return bad


def annotate_figures(path):
    """'N (pct)  file:fn [obj]' lines of callgrind_annotate's function table, first event"""
    figs = {}
    for l in open(path):
        m = re.match(r"^\s*([\d,]+) \(\s*[\d.]+%\)(?:\s+(?:[\d,]+ \(\s*[\d.]+%\)|[0.]))*\s+(\S+) \[(.*)\]$", l)
        if m:
            figs[m.group(2)] = int(m.group(1).replace(",", ""))
    return figs


def annotate(path, plain, incl):
    events, self_cost, calls, call_cost, out_cost, totals, summary = parse(path)
    e = events[0]
    want_plain = {n: c[e] for n, c in self_cost.items() if c[e]}
    # callgrind_annotate --inclusive=yes: what its callers' call lines say, or for a
    # function nobody calls its own cost and that of its calls
    want_incl = {}
    for n in set(self_cost) | set(out_cost):
        want_incl[n] = self_cost[n][e] + out_cost[n][e]
    for n, c in call_cost.items():
        want_incl[n] = c[e]
    want_incl = {n: v for n, v in want_incl.items() if v}
    bad = 0
    for what, got, want in (("plain", annotate_figures(plain), want_plain), ("inclusive", annotate_figures(incl), want_incl)):
        for n in sorted(set(got) | set(want)):
            if got.get(n) != want.get(n):
                print("FAIL %s %s: callgrind_annotate says %s, the file %s" % (what, n, got.get(n), want.get(n)))
                bad = 1
        print("%s: %d functions compared" % (what, len(want)))
    return bad


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], sys.argv[3:]))
    if len(sys.argv) == 5 and sys.argv[1] == "incl":
        parse(sys.argv[2])
        print(parse.edge_cost[(sys.argv[3], sys.argv[4])])
        sys.exit(0)
    if len(sys.argv) >= 4 and sys.argv[1] == "self":
        s = 0
        for path in sys.argv[3:]:
            events, self_cost = parse(path)[:2]
            s += sum(c[events[0]] for n, c in self_cost.items() if sys.argv[2] in ("*", n.split(":")[-1]))
        print(s)
        sys.exit(0)
    if len(sys.argv) == 5 and sys.argv[1] == "annotate":
        sys.exit(annotate(sys.argv[2], sys.argv[3], sys.argv[4]))
    sys.exit(__doc__)
