"""bench/RESULTS.md sections written by the Python benches (parallel.py, boots.py).

The C harness (bench.c) writes the file's main tables; each Python bench owns
one "## Heading" section and replaces just that section, so the benches can be
run in any order and each keeps the others' figures.
"""
import os
import re
import subprocess
import sys
import tempfile
import time


def run(argv, stdin=None):
    """Run argv; (wall s, user+sys CPU s, peak RSS KiB, stdout, stderr).

    CPU time and peak RSS are the child's own (wait4), so they do not count
    this script; output goes through temporary files, so neither pipe can
    fill and stall the child.  A non-zero exit ends the bench with its stderr."""
    wall, ru, o, e = run_rusage(argv, stdin)
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, o, e


def run_rusage(argv, stdin=None):
    """run(), with the child's whole rusage: (wall s, rusage, stdout, stderr)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        p = subprocess.Popen(argv, stdin=stdin, stdout=out, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        o, e = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    if p.returncode != 0:
        sys.exit("%s: exit %d: %s" % (" ".join(argv), p.returncode, e))
    return wall, ru, o, e


def write_section(path, heading, text):
    """Replace the section that starts with `## heading` in path (or append it)."""
    old = open(path).read() if os.path.exists(path) else "# rvtrace benchmark results\n"
    pat = re.compile(r"## " + re.escape(heading) + r".*?(?=\n## |\Z)", re.S)
    # the match stops at the newline before the next heading: keep a blank line
    new = pat.sub(lambda m: text.rstrip("\n") + "\n", old) if pat.search(old) else \
        old.rstrip("\n") + "\n\n" + text
    open(path, "w").write(new.rstrip("\n") + "\n")


def sections(text):
    """{heading: section text} of every `## ` section in text."""
    return {m.group(1): m.group(0) for m in re.finditer(r"^## ([^\n]*)\n.*?(?=\n## |\Z)", text, re.S | re.M)}


# The sections the Python benches own (their headings' first words).
PYTHON_SECTIONS = ("Parallel decoding", "PC lists in parallel", "Booting real software")


def carry(old_path, new_path):
    """Append to new_path the Python benches' sections of old_path that it
    lacks: the C harness rewrites RESULTS.md whole, and those sections (slow
    to measure again) must survive that."""
    if not os.path.exists(old_path):
        return
    new = open(new_path).read()
    have = sections(new)
    for heading, text in sections(open(old_path).read()).items():
        if heading not in have and heading.startswith(PYTHON_SECTIONS):
            write_section(new_path, heading, text)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "carry":
        carry(sys.argv[2], sys.argv[3])
    else:
        sys.exit("usage: results_md.py carry OLD.md NEW.md")
