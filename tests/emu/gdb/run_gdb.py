#!/usr/bin/env python3
"""tests/emu/gdb/run_gdb.py — gdb-multiarch in batch mode against kit-emu -g
and, for what both can do, qemu-riscv64 -g, on guest.c built with
riscv64-linux-gnu-gcc -g.

usage: run_gdb.py KIT_EMU CHECK [LINKING OPT]
  CHECK transcript: break at a function and at file:line, continue, bt,
        finish, next, step, info locals, print of structs and arrays,
        info registers (integer and float), x/, info sharedlibrary, a
        breakpoint in libc set before a dynamic program loaded it, the exit code — the transcript against kit-emu
        must equal the one against qemu-riscv64 once stack and heap
        addresses are normalised (and hold the expected lines, so two equal
        wrong transcripts fail too)
  CHECK segv: a SIGSEGV stop, bt there, the end by the signal; a SIGUSR1
        with a handler: the stop before it, the handler run as gdb passes
        the signal on (both)
  CHECK watch: watch, rwatch and awatch on a global, the heap and the stack,
        several at once: the stop's line and the old and new values (kit-emu
        only: qemu-user answers watchpoints "not supported")
  CHECK control: stepi from the first instruction, break *ADDR, kill (both);
        a fork whose child runs on without gdb; gdb given neither the program
        nor a sysroot (vFile); detach, after which the guest runs to its end
        (kit-emu)
  CHECK asan: kit-emu --sanitize=address -g: a heap overflow's report stops
        in gdb at the bad access, monitor asan report, the exit (kit-emu)
  CHECK dbg: kit-emu --dbg -batch -ex ... on the commands of the subset it
        has gives gdb's lines (gdb-multiarch against kit-emu -g run as the
        reference); readable errors (kit-emu only)
  CHECK interrupt: Ctrl-C (SIGINT to gdb) stops a guest spinning in a loop;
        gdb changes a variable and the guest exits (kit-emu only)
  CHECK threads: threads.c (-pthread): a breakpoint hit by a second thread,
        info threads, thread N and bt of each (threads in pthread_join), next
        and finish in the thread that stopped, the breakpoint hit by a third
        thread, a register of another thread written and read back, stepi of
        a thread other than the one stopped (it waits in a system call), the
        exit; the transcript equal to qemu-riscv64's
  LINKING static|dynamic, OPT -O0|-O2 (default static -O0)
KIT_GDB_EMU_ARGS adds options to kit-emu's command line (--tier=0, --tier=1).
Exit 77 when gdb-multiarch, qemu-riscv64 or the cross compiler is missing.
"""
import difflib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SYSROOT = "/usr/riscv64-linux-gnu"
CC = "riscv64-linux-gnu-gcc"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def listening(port):
    """is something listening on TCP port (from /proc/net/tcp, without connecting)?"""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                for line in f.readlines()[1:]:
                    fields = line.split()
                    if fields[3] == "0A" and int(fields[1].split(":")[1], 16) == port:
                        return True
        except OSError:
            pass
    return False


def line_of(src, marker):
    with open(src) as f:
        for n, text in enumerate(f, 1):
            if marker in text:
                return n
    sys.exit("no line with %r in %s" % (marker, src))


def run(engine, prog, args, commands, work, name, interrupt_after=None, emu_args=(), bare=False):
    """engine's -g on a free port, gdb-multiarch -batch with commands; gdb's output and the engine's status"""
    port = free_port()
    if engine == "qemu":
        cmd = ["qemu-riscv64", "-L", SYSROOT, "-g", str(port), prog] + args
    else:
        extra = os.environ.get("KIT_GDB_EMU_ARGS", "").split()  # e.g. --tier=0, to try every tier by hand
        cmd = [engine, "-L", SYSROOT] + extra + list(emu_args) + ["-g", str(port), prog] + args
    out = open(os.path.join(work, name + ".guest"), "w")
    guest = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.time() + 20
    while not listening(port):
        if guest.poll() is not None or time.time() > deadline:
            guest.kill()
            sys.exit("%s did not listen on port %d" % (cmd[0], port))
        time.sleep(0.05)
    # one -ex each: an error (a command after the exit) does not skip the rest
    setup = ["set pagination off", "set confirm off", "set width 0", "set height 0"]
    if not bare:  # bare: gdb takes the program and its libraries from the stub (vFile)
        setup += ["set sysroot " + SYSROOT, "file " + prog]
    setup += ["target remote :%d" % port]
    argv = ["gdb-multiarch", "-nx", "-batch"]
    for command in setup + commands:
        argv += ["-ex", command]
    g = subprocess.Popen(argv, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    if interrupt_after is not None:
        time.sleep(interrupt_after)
        g.send_signal(signal.SIGINT)
    try:
        text, _ = g.communicate(timeout=45)
    except subprocess.TimeoutExpired:
        g.kill()
        guest.kill()
        text, _ = g.communicate()
        print("--- gdb timed out; its output:\n" + text)
        sys.exit(1)
    try:
        status = guest.wait(timeout=10)
    except subprocess.TimeoutExpired:
        guest.kill()
        status = "hung"
    out.close()
    with open(os.path.join(work, name + ".out"), "w") as f:
        f.write(text)
    return text, status


def normalise(text):
    """addresses that differ between emulators (stack, heap, mappings) become ADDR"""
    lines = []
    for line in text.splitlines():
        if "does not support file transfer" in line:
            continue  # kit-emu offers no vFile (the test sets a sysroot)
        if re.match(r"^\[Inferior 1 \(process \d+\)", line):
            line = re.sub(r"process \d+", "process N", line)
        line = re.sub(r"0x[0-9a-f]+", lambda m: m.group(0) if int(m.group(0), 16) < 0x200000 else "ADDR", line)
        # info registers: the decimal column of a pointer register
        line = re.sub(r"^(\w+\s+ADDR\s+)-?\d+$", r"\1N", line)
        line = re.sub(r"LWP \d+|Thread \d+\.\d+|process \d+", "TID", line)
        # info threads: qemu's extra thread text (qThreadExtraInfo), and the column widths it changes
        line = re.sub(r" \(CPU#\d+ \[\w+\]\)", "", line)
        if re.match(r"^(  Id|[* ] \d+) ", line):
            line = re.sub(r" +", " ", line)
        lines.append(line)
    return lines


class Checker:
    def __init__(self):
        self.fail = 0
        self.passed = 0

    def has(self, what, text, pattern):
        if re.search(pattern, text, re.M):
            self.passed += 1
        else:
            self.fail += 1
            print("FAIL %s: no line matching /%s/" % (what, pattern))

    def equal(self, what, a, b):
        if a == b:
            self.passed += 1
            return
        self.fail += 1
        print("FAIL %s: the transcripts differ (--- kit-emu, +++ qemu):" % what)
        sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(a, b, "kit-emu", "qemu", lineterm="", n=2))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    kit_emu, check = sys.argv[1], sys.argv[2]
    linking = sys.argv[3] if len(sys.argv) > 3 else "static"
    opt = sys.argv[4] if len(sys.argv) > 4 else "-O0"
    for tool in ("gdb-multiarch", "qemu-riscv64", CC):
        if not shutil.which(tool):
            print("%s not installed" % tool)
            sys.exit(77)
    src = os.path.join(HERE, "threads.c" if check == "threads" else "guest.c")
    work = tempfile.mkdtemp(prefix="kit-gdb-")
    prog = os.path.join(work, "guest")
    flags = ["-g", opt] + (["-static"] if linking == "static" else []) + (["-pthread"] if check == "threads" else [])
    subprocess.run([CC] + flags + [src, "-o", prog], check=True)
    c = Checker()
    r_line = line_of(src, "return r;") if check != "threads" else 0
    if check == "transcript":
        commands = [
            # printf: in libc, which a dynamic program has not loaded yet
            "set breakpoint pending on", "break main", "break guest.c:%d" % r_line, "break printf", "continue", "info registers", "info registers float",
            "continue", "bt", "finish", "next", "step", "info locals", "up", "print *p@3", "print p[1]", "up", "print pts", "print/x pts[1]", "ptype pts", "info frame", "down",
            "print table", "print counter", "print scale", "x/4xw &table", "x/2i $pc", "delete 1 2",
            "info sharedlibrary", "info threads", "continue", "bt 1", "continue",
        ]
        kit, kst = run(kit_emu, prog, [], commands, work, "kit")
        qemu, qst = run("qemu", prog, [], commands, work, "qemu")
        c.equal("transcript (%s %s)" % (linking, opt), normalise(kit), normalise(qemu))
        c.has("breakpoint at main", kit, r"^Breakpoint 1, main \(")
        c.has("breakpoint at file:line", kit, r"^Breakpoint 2, square \(v=1\) at .*guest.c:%d" % r_line)
        c.has("bt", kit, r"^#1 +0x[0-9a-f]+ in sum \(")
        c.has("finish", kit, r"^Value returned is \$1 = 1$")
        c.has("integer registers", kit, r"^sp +0x[0-9a-f]+")
        c.has("float registers", kit, r"^ft0 +")
        c.has("print of an array", kit, r"= \{1, 2, 3, 4, 5\}$")
        c.has("print of an array of structs", kit, r'= \{\{x = 1, y = 2, name = 0x[0-9a-f]+ "a"\}, \{x = 3, y = 4')
        c.has("ptype", kit, r"^type = struct point \{$")
        c.has("exit code", kit, r"^\[Inferior 1 \(process \d+\) exited with code 067\]$")
        c.has("info threads", kit, r"^\* 1 +Thread \d+\.\d+ ")
        c.has("a breakpoint in libc set before it was loaded", kit, r"^Breakpoint 3, (0x[0-9a-f]+ in )?printf ")
        if linking == "dynamic":
            c.has("info sharedlibrary", kit, r"libc\.so\.6$")
        c.has("the guest's output", open(os.path.join(work, "kit.guest")).read(), r"^sum 47 109 8 70\.5$")
        if kst != 55:
            c.fail += 1
            print("FAIL kit-emu's status: %s, not 55" % kst)
    elif check == "segv":
        commands = ["continue", "bt 1", "info registers pc", "continue"]
        kit, kst = run(kit_emu, prog, ["segv"], commands, work, "kit")
        qemu, _ = run("qemu", prog, ["segv"], commands, work, "qemu")
        c.equal("SIGSEGV transcript (%s %s)" % (linking, opt), normalise(kit), normalise(qemu))
        c.has("SIGSEGV stop", kit, r"^Program received signal SIGSEGV, Segmentation fault\.$")
        c.has("at main", kit, r"^#0 +(0x[0-9a-f]+ in )?main \(")
        c.has("ended by the signal", kit, r"^Program terminated with signal SIGSEGV, Segmentation fault\.$")
        commands = ["break on_usr1", "continue", "continue", "bt 1", "continue"]
        kit, kst = run(kit_emu, prog, ["usr1"], commands, work, "kit-usr1")
        qemu, _ = run("qemu", prog, ["usr1"], commands, work, "qemu-usr1")
        c.equal("SIGUSR1 transcript (%s %s)" % (linking, opt), normalise(kit), normalise(qemu))
        c.has("a signal stops before its handler", kit, r"^Program received signal SIGUSR1, User defined signal 1\.$")
        c.has("gdb passes it on: the handler runs", kit, r"^Breakpoint 1, on_usr1 \(sig=10\)")
        c.has("and the program goes on", kit, r"exited with code 012\]$")
    elif check == "watch":
        bump_end = line_of(src, "*slot = before + by;") + 1
        commands = [
            "break bump", "continue", "delete",
            # at once: the heap (heap[2] through the first bump), a global, a
            # read of a global, main's stack, an access of a global
            "watch *slot", "watch table[1]", "rwatch scale", "up", "watch local", "down", "awatch counter",
            "continue", "continue", "continue", "continue", "continue", "continue", "continue", "continue",
            "continue",
        ]
        kit, kst = run(kit_emu, prog, [], commands, work, "kit")
        c.has("write watchpoint on the heap", kit, r"^Hardware watchpoint 2: \*slot\n\nOld value = 20\nNew value = 109$")
        c.has("the stop is in bump after the store", kit,
              r"New value = 109\n(0x[0-9a-f]+ in )?bump \(slot=0x[0-9a-f]+, by=89\) at .*guest.c:%d$" % bump_end)
        c.has("a local's watchpoint ends with its frame", kit, r"^Watchpoint 2 deleted because the program has left the block in$")
        c.has("write watchpoint on a global", kit,
              r"^Hardware watchpoint 3: table\[1\]\n\nOld value = 2\nNew value = 49$")
        c.has("read watchpoint", kit, r"^Hardware read watchpoint 4: scale\n\nValue = 1\.5\n.*main \(.*guest.c:%d$"
              % line_of(src, "double d = scale * s;"))
        c.has("write watchpoint on the stack", kit, r"^Hardware watchpoint 5: local\n\nOld value = 7\nNew value = 8$")
        c.has("access watchpoint: the read", kit, r"^Hardware access \(read/write\) watchpoint 6: counter\n\nValue = 47$")
        c.has("access watchpoint: the write", kit,
              r"^Hardware access \(read/write\) watchpoint 6: counter\n\nOld value = 47\nNew value = 48$")
        c.has("exit code", kit, r"exited with code 067\]$")
        qemu, _ = run("qemu", prog, [], ["break bump", "continue", "watch *slot", "continue"], work, "qemu")
        print("qemu-riscv64 -g, for comparison: %s" % ("; ".join(l for l in qemu.splitlines() if "atchpoint" in l)))
    elif check == "control":
        # stepi from the first instruction, a breakpoint at an address, kill (both); detach (kit-emu)
        commands = ["stepi", "stepi", "x/i $pc", "info registers pc ra", "break *sum", "continue", "stepi",
                    "info registers pc", "kill", "info registers pc"]
        kit, kst = run(kit_emu, prog, [], commands, work, "kit")
        qemu, _ = run("qemu", prog, [], commands, work, "qemu")
        c.equal("stepi, break *ADDR, kill (%s %s)" % (linking, opt), normalise(kit), normalise(qemu))
        c.has("the breakpoint at an address", kit, r"^Breakpoint 1, (0x[0-9a-f]+ in )?sum \(")
        c.has("kill", kit, r"^\[Inferior 1 \(process \d+\) killed\]$")
        kit, kst = run(kit_emu, prog, ["fork"], ["break square", "continue", "bt 2", "delete", "continue"], work, "fork")
        c.has("a fork child runs without the stub: the first stop is the parent's", kit,
              r"^Breakpoint 1, square \(v=1\)")
        c.has("the parent exits after its child", kit, r"exited with code 067\]$")
        dyn = os.path.join(work, "guest-dynamic")
        subprocess.run([CC, "-g", "-O0", src, "-o", dyn], check=True)
        kit, kst = run(kit_emu, dyn, [], ["break printf", "continue", "info sharedlibrary", "bt 2", "continue"], work,
                       "hostio", bare=True)
        c.has("no file, no sysroot: gdb reads the program from kit-emu", kit, r"^#1 +0x[0-9a-f]+ in main \(argc=1, ")
        c.has("and the libraries by their guest paths (vFile)", kit, r"^Breakpoint 1, 0x[0-9a-f]+ in printf \(\) from "
              r"target:/lib/(riscv64-linux-gnu/)?libc\.so\.6$")
        if "does not support file transfer" in kit:
            c.fail += 1
            print("FAIL gdb warned: the remote target does not support file transfer")
        kit, kst = run(kit_emu, prog, [], ["break sum", "continue", "detach"], work, "detach")
        c.has("detach", kit, r"^\[Inferior 1 \(process \d+\) detached\]$")
        c.has("the guest runs on after detach", open(os.path.join(work, "detach.guest")).read(), r"^sum 47 109 8 70\.5$")
        if kst != 55:
            c.fail += 1
            print("FAIL kit-emu's status after detach: %s, not 55" % kst)
    elif check == "asan":
        overflow = line_of(src, "heap[argc + 2] = 1;")
        commands = ["continue", "bt 1", "print heap", "print &heap[4]", "monitor asan report", "continue"]
        kit, kst = run(kit_emu, prog, ["overflow"], commands, work, "kit", emu_args=["--sanitize=address"])
        c.has("an ASan report stops in gdb at the bad access", kit,
              r"^Program received signal SIGTRAP, .*\n(0x[0-9a-f]+ in )?main \(.*guest.c:%d$" % overflow)
        c.has("the report was printed before the stop", open(os.path.join(work, "kit.guest")).read(),
              r"ERROR: AddressSanitizer: heap-buffer-overflow")
        m = re.search(r"^\$2 = \(long \*\) (0x[0-9a-f]+)", kit, re.M)
        c.has("the report names the address gdb computes", kit,
              r"WRITE of size 8 at 0x0*%s " % (m.group(1)[2:] if m else "none"))
        c.has("monitor asan report", kit, r"^==\d+==ERROR: AddressSanitizer: heap-buffer-overflow")
        c.has("the report ends the process, as gdb hears", kit, r"exited with code 01\]$")
    elif check == "dbg":
        # kit-emu --dbg -batch and gdb-multiarch against kit-emu -g on the same commands: the lines of the
        # subset --dbg has must be the same (frames with their arguments, info args/locals of -O0 code)
        call_line = line_of(src, "int s = sum(pts, 3);")
        rounds = [
            ["break sum", "break guest.c:%d" % r_line, "run", "bt", "continue", "bt", "finish", "next", "step",
             "print counter", "print table", "x/4xw &table", "info registers sp", "delete", "watch counter",
             "continue", "continue", "delete", "continue"],
            # step into a call (past its prologue), next to its end and back into the caller
            ["break guest.c:%d" % call_line, "run", "step", "info args", "info locals", "next", "next", "print total",
             "next", "next", "next", "next", "step", "bt", "info locals", "continue"],
        ]

        def lines(text):
            out = []
            for l in text.splitlines():
                l = re.sub(r"^(#\d+) +", r"\1 ", l)
                l = re.sub(r"^(\w+)\s+(0x[0-9a-f]+)\s+.*$", r"\1 \2", l)  # info registers
                l = re.sub(r"process \d+", "process N", l)
                out.append(l)
            return out
        for i, commands in enumerate(rounds):
            gdb_cmds = ["continue" if x == "run" else x for x in commands]
            ref, _ = run(kit_emu, prog, [], gdb_cmds, work, "gdb%d" % i)
            argv = [kit_emu, "-L", SYSROOT, "--dbg", "-batch"]
            for x in commands:
                argv += ["-ex", x]
            p = subprocess.run(argv + [prog], capture_output=True, text=True, timeout=45)
            with open(os.path.join(work, "dbg%d.out" % i), "w") as f:
                f.write(p.stdout)
            want = [l for l in lines(ref) if re.match(r"^(Breakpoint \d+, |#\d |\d+\t|Value returned|0x[0-9a-f]+ "
                                                      r"<table>|sp |Old value|New value|\[Inferior|\$\d+ = |\w+ \(.*\) at |\w+ = )", l)
                    and not re.match(r"^\w+ = \{", l)]  # an aggregate local: --dbg prints {...}
            have = lines(p.stdout)
            for l in want:
                l2 = l.replace(" <table>:", ":")
                if l2 in have:
                    c.passed += 1
                else:
                    c.fail += 1
                    print("FAIL --dbg (round %d) lacks gdb's line %r" % (i, l2))
            if p.returncode != 55:
                c.fail += 1
                print("FAIL kit-emu --dbg's status: %s, not 55" % p.returncode)
        r = subprocess.run([kit_emu, "--dbg", "-batch", "-ex", "break nosuch", "-ex", "bogus", "-ex", "print $bogus",
                            "-ex", "x/2x 0x10", "-ex", "print nosuch", prog], capture_output=True, text=True, timeout=45)
        for pat in (r'^Function "nosuch" not defined\.$', r'^Undefined command: "bogus"', r'^No register "bogus"',
                    r"Cannot access memory at address 0x10$", r'^No symbol "nosuch" in current context'):
            c.has("--dbg error", r.stdout, pat)
    elif check == "threads":
        commands = [
            "break work", "continue", "info threads", "thread 1", "bt", "thread 3", "bt", "thread 2", "next", "next",
            "bt", "finish", "continue", "info threads", "bt",
            # another thread's register, written and read back from the stub (not gdb's cache)
            "thread 1", "set $old = $t0", "set $t0 = 0x1234", "maint flush register-cache", "p/x $t0",
            "set $t0 = $old", "maint flush register-cache", "p $t0 == $old",
            # thread 1 waits in pthread_join for thread 3, stopped at the breakpoint: gdb steps thread 3 off
            # it, then steps thread 1 with the others running; the step ends when the join returns
            "stepi", "info threads", "delete", "continue",
        ]
        kit, kst = run(kit_emu, prog, [], commands, work, "kit")
        qemu, _ = run("qemu", prog, [], commands, work, "qemu")
        c.equal("threads transcript (%s %s)" % (linking, opt), normalise(kit), normalise(qemu))
        c.has("a second thread's breakpoint", kit, r"^Thread 2 hit Breakpoint 1, work \(id=1, n=10\) at .*threads.c:\d+$")
        c.has("the new threads", kit, r"^\[New Thread \d+\.\d+\]\n\[New Thread \d+\.\d+\]$")
        c.has("info threads: three", kit,
              r"^  Id +Target Id +Frame *\n  1 +Thread \d+\.\d+ +0x[0-9a-f]+ in (__futex_abstimed_wait_common|\?\?) .*\n"
              r"\* 2 +Thread \d+\.\d+ +work \(id=1, n=10\).*\n  3 +Thread \d+\.\d+ +0x[0-9a-f]+ in ")
        c.has("bt of thread 1: main in pthread_join", kit, r"^\[Switching to thread 1 \(Thread \d+\.\d+\)\]$")
        if linking == "static":
            c.has("bt of thread 1 reaches main", kit, r"^#2 +0x[0-9a-f]+ in main \(\) at .*threads.c:\d+$")
            c.has("bt of thread 3 reaches second", kit, r"^#2 +0x[0-9a-f]+ in second \(arg=0x2\) at .*threads.c:\d+$")
        c.has("next in the stopped thread", kit, r"^#0 +work \(id=1, n=10\) at .*threads.c:%d$" % line_of(src, "return s;"))
        c.has("finish", kit, r"^Value returned is \$1 = 45$")
        c.has("the third thread's breakpoint", kit, r"^Thread 3 hit Breakpoint 1, work \(id=2, n=10\)")
        c.has("info threads after thread 2 exited", kit,
              r"^  Id +Target Id +Frame *\n  1 +Thread \d+\.\d+ +0x[0-9a-f]+ in .*\n\* 3 +Thread \d+\.\d+ +work \(id=2")
        c.has("another thread's register written", kit, r"^\$2 = 0x1234$")
        c.has("and restored", kit, r"^\$3 = 1$")
        c.has("stepi of thread 1 after its join returned", kit,
              r"^  Id +Target Id +Frame *\n\* 1 +Thread \d+\.\d+ +0x[0-9a-f]+ in [^\n]*\n\[Inferior 1 \(process \d+\) exited with code 03\]$")
        c.has("the guest's output", open(os.path.join(work, "kit.guest")).read(), r"^results 45 90$")
        if kst != 3:
            c.fail += 1
            print("FAIL kit-emu's status: %s, not 3" % kst)
        # next out of the thread function: gdb single-steps thread 2 through start_thread until the thread
        # exits inside the step; the others ran on, and thread 3's breakpoint is the next stop
        commands = ["break work", "continue", "finish", "next", "next", "next", "next", "next", "info threads",
                    "continue"]
        kit, kst = run(kit_emu, prog, [], commands, work, "kit-exit")
        qemu, _ = run("qemu", prog, [], commands, work, "qemu-exit")
        c.equal("a thread exits while stepped (%s %s)" % (linking, opt), normalise(kit), normalise(qemu))
        if linking == "static":  # a dynamic libc has no symbols here: gdb cannot step out of its frame
            c.has("stepping into start_thread", kit, r"^Single stepping until exit from function start_thread,")
            c.has("the stepped thread exited: thread 3's breakpoint", kit,
                  r"^which has no line number information\.\n\[Switching to Thread \d+\.\d+\]\n\n"
                  r"Thread 3 hit Breakpoint 1, work \(id=2, n=10\)")
            c.has("the end", kit, r"^\[Inferior 1 \(process \d+\) exited with code 03\]$")
        else:
            c.has("thread 3's breakpoint", kit, r"^Thread 3 hit Breakpoint 1, work \(id=2, n=10\)")
        # kit-emu --dbg on the same: info threads, thread N, a step of the selected thread
        dbg_cmds = ["break work", "run", "info threads", "thread 1", "bt", "thread 2", "next", "continue",
                    "info threads", "thread 2", "thread 9", "thread", "delete", "thread 1", "stepi", "continue"]
        argv = [kit_emu, "-L", SYSROOT, "--dbg", "-batch"]
        for command in dbg_cmds:
            argv += ["-ex", command]
        dbg = subprocess.run(argv + [prog], capture_output=True, text=True, timeout=45)
        with open(os.path.join(work, "dbg.out"), "w") as f:
            f.write(dbg.stdout + dbg.stderr)
        out = dbg.stdout
        c.has("--dbg: thread 2's breakpoint", out, r"^\[Switching to Thread \d+\.\d+\]\n\nThread 2 hit Breakpoint 1, work \(id=1, n=10\)")
        c.has("--dbg: info threads", out, r"^  Id +Target Id +Frame *\n  1 +Thread \d+\.\d+ +0x[0-9a-f]+ in .*\n"
              r"\* 2 +Thread \d+\.\d+ +work \(id=1, n=10\).*\n  3 +Thread \d+\.\d+ +0x[0-9a-f]+ in ")
        c.has("--dbg: thread 1 and its bt", out, r"^\[Switching to thread 1 \(Thread \d+\.\d+\)\]\n#0 +0x[0-9a-f]+ in ")
        if linking == "static":
            c.has("--dbg: bt of thread 1 reaches main", out, r"^#2 +0x[0-9a-f]+ in main \(\) at ")
        c.has("--dbg: next in thread 2", out, r"^%d\t" % line_of(src, "for (int i = 0; i < n; i++)"))
        c.has("--dbg: thread 3's breakpoint", out, r"^Thread 3 hit Breakpoint 1, work \(id=2, n=10\)")
        c.has("--dbg: thread 2 gone", out, r"^Thread ID 2 has terminated\.$")
        c.has("--dbg: no thread 9", out, r"^Invalid thread ID: 9$")
        c.has("--dbg: the current thread", out, r"^\[Current thread is 3 \(Thread \d+\.\d+\)\]$")
        c.has("--dbg: stepi of thread 1 after its join", out,
              r"^\[Switching to thread 1 \(Thread \d+\.\d+\)\]\n#0 +0x([0-9a-f]+) in .*\n0x[0-9a-f]+ in ")
        c.has("--dbg: the end", out, r"^\[Inferior 1 \(process \d+\) exited with code 03\]$")
    elif check == "interrupt":
        spin = line_of(src, "while (!spin_stop) counter++;")
        # after 3 s the loop is compiled code: a breakpoint and steps in it
        commands = ["continue", "print spin_stop", "print counter > 47", "break *$pc", "continue", "info breakpoints",
                    "stepi", "stepi", "stepi", "stepi", "delete", "set var spin_stop = 1", "continue"]
        kit, kst = run(kit_emu, prog, ["spin"], commands, work, "kit", interrupt_after=3)
        c.has("Ctrl-C stops the spinning guest", kit, r"^Program received signal SIGINT, Interrupt\.$")
        c.has("the guest ran", kit, r"^\$2 = 1$")
        c.has("a breakpoint in the hot loop", kit, r"^Breakpoint 1, 0x[0-9a-f]+ in main \(.*guest.c:%d$" % spin)
        c.has("hit once", kit, r"breakpoint already hit 1 time")
        c.has("stepi in the loop", kit, r"^0x[0-9a-f]+\s+%d\s+while" % spin)
        c.has("gdb's write reaches the guest: it exits", kit, r"exited with code 067\]$")
    else:
        sys.exit(__doc__)
    print("%d passed, %d failed (outputs in %s)" % (c.passed, c.fail, work))
    if c.fail:
        for n in sorted(os.listdir(work)):
            if n.endswith(".out"):
                print("--- %s:\n%s" % (n, open(os.path.join(work, n)).read()))
        sys.exit(1)
    if not os.environ.get("KIT_GDB_KEEP"):
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
