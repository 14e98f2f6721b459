#!/usr/bin/env python3
"""Booting real software, untraced and traced (issue #15 "Bench").

Boots Debian's OpenSBI 1.1 (generic fw_jump.elf) with two payloads on the
reference hart, as tests/e2e/boot_uboot.sh and boot_linux.sh do:

  u-boot  Debian's U-Boot S-mode build to its prompt, `version`, `bdinfo`,
          `md`, `poweroff` typed on the UART;
  linux   programs/linux/Image (Linux 6.1) to its init's poweroff.

Each boot runs untraced and then with one trace on at a time (E-Trace in
its default and all-modes forms, with data trace, N-Trace BTM and HTM, the
tandem-verification trace), and the table gives each run's CPU time (the
child's user + system time from wait4), its ratio to the untraced run, and
the stream's bits per retired instruction.  Goal (issue #15): the whole boot
with E-Trace in all modes costs <= 3x the untraced run.  Every traced run is
checked to retire the same instruction count as the untraced one.

Writes the section "Booting real software" of bench/RESULTS.md.  Skips (exit
0, nothing written) without the opensbi / u-boot-qemu packages.

usage: bench/boots.py [BUILD] [--out FILE] [--repeat N]
"""
import argparse
import datetime
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_md  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FW = "/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf"
UBOOT = "/usr/lib/u-boot/qemu-riscv64_smode/uboot.elf"
LINUX = os.path.join(ROOT, "programs", "linux", "Image")
HEADING = "Booting real software"

# (name, run options with {f} standing for the trace file, the file's
# suffix; None: untraced).
TRACES = [
    ("untraced", [], None),
    ("E-Trace, delta addresses", ["--etrace", "{f}"], "te"),
    ("E-Trace, all modes", ["--etrace", "{f}", "--te-opt", "all"], "te"),
    ("E-Trace, all modes + data trace", ["--etrace", "{f}", "--te-opt", "all", "--te-data"], "te"),
    ("N-Trace BTM", ["--ntrace", "{f}", "--nt-opt", "btm"], "nt"),
    ("N-Trace HTM, seq-jump, implicit return, repeat", ["--ntrace", "{f}", "--nt-opt",
                                                        "htm,seq-jump,implicit-return=1,repeat-history"], "nt"),
    ("tandem verification", ["--tv", "{f}"], "tvt"),
]


def boots(tmp):
    """(name, run arguments) of each boot."""
    keys = os.path.join(tmp, "uboot.in")
    with open(keys, "w") as f:
        f.write("\nversion\nbdinfo\nmd 0x80200000 4\npoweroff\n")
    return [("OpenSBI + U-Boot (prompt, 3 commands, poweroff)",
             ["--bios", FW, "--kernel", UBOOT, "--stdin", keys]),
            ("OpenSBI + Linux 6.1 (to init's poweroff)",
             ["--bios", FW, "--kernel", LINUX, "--append", "console=ttyS0 earlycon"])]


def retired(stderr):
    """The run summary's retired-instruction count."""
    m = re.search(r"([0-9,]+) instructions retired", stderr)
    if not m:
        sys.exit("no run summary in: " + stderr[-300:])
    return int(m.group(1).replace(",", ""))


def measure(rvt, boot_args, tmp, repeat):
    rows, base_n, base_cpu = [], None, None
    for name, opts, suffix in TRACES:
        path = os.path.join(tmp, "boot." + suffix) if suffix else None
        argv = [rvt, "run"] + boot_args + ["--max-instr", "1G"] + [o.replace("{f}", path or "") for o in opts]
        best = None
        for _ in range(repeat):     # the least CPU time of N runs: the machine is shared
            wall, cpu, rss, out, err = results_md.run(argv)
            best = cpu if best is None else min(best, cpu)
        n = retired(err)
        if base_n is None:
            base_n, base_cpu = n, best
        elif n != base_n:
            sys.exit("%s: %d instructions retired, untraced %d" % (name, n, base_n))
        size = os.path.getsize(path) if path else 0
        rows.append((name, best, best / base_cpu if base_cpu else 0, size, 8.0 * size / n if n else 0))
        print("  %-50s %6.2f s CPU %6.2fx %10d bytes" % rows[-1][:4], flush=True)
        if path:
            os.unlink(path)
            if os.path.exists(path + ".attrs"):
                os.unlink(path + ".attrs")
    return base_n, rows


def section(when, results):
    lines = [
        "## " + HEADING,
        "",
        "Measured %s (`bench/boots.py`) on %d online CPUs shared with other jobs.  Debian's OpenSBI 1.1"
        " (`fw_jump.elf`) boots each payload on the reference hart (`rvtrace run --bios --kernel`);"
        " CPU time is the run's own (user + system, the least of the repeats), the trace written"
        " to a file.  Goal: E-Trace with all modes <= 3x the untraced run." % (when, os.cpu_count()),
        "",
    ]
    for boot, n, rows in results:
        lines += ["### %s: %s instructions" % (boot, format(n, ",")), "",
                  "| trace | CPU s | of untraced | bytes | bits / instruction |",
                  "|---|---:|---:|---:|---:|"]
        for name, cpu, ratio, size, bpi in rows:
            lines.append("| %s | %.2f | %.2fx | %s | %s |"
                         % (name, cpu, ratio, format(size, ",") if size else "",
                            "%.4f" % bpi if size else ""))
        lines.append("")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build", nargs="?", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "RESULTS.md"))
    ap.add_argument("--repeat", type=int, default=2, help="runs of each, the least CPU time kept")
    a = ap.parse_args()
    if not (os.path.exists(FW) and os.path.exists(UBOOT)):
        print("boots: skipped (opensbi or u-boot-qemu not installed)")
        return
    rvt = os.path.join(a.build, "rvtrace")
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    results = []
    with tempfile.TemporaryDirectory(prefix="rvt-boots-") as tmp:
        for boot, args in boots(tmp):
            print(boot, flush=True)
            n, rows = measure(rvt, args, tmp, a.repeat)
            results.append((boot, n, rows))
    results_md.write_section(a.out, HEADING, section(when, results))


if __name__ == "__main__":
    main()
