#!/usr/bin/env python3
"""Checks the documentation against the program (docs/design.md, "Tests"); run by
docs_commands.sh, which makes the scratch directory and the result files the
examples read.

  docs_check.py IOTRIAL WORKDIR LOOPDEV LOOPWHY DOC...

1. Every command in a ```sh block of each DOC runs, in WORKDIR (the
   `iotrial` it calls is IOTRIAL), and must exit 0 with no error line.
   Directives in HTML comments on the lines right before the block adapt it:
     <!-- docs-test: sub 'OLD' 'NEW' -->   replace OLD by NEW in each command
                                           (to shorten it, or to move /data
                                           and devices to scratch files)
     <!-- docs-test: skip 'TEXT' 'WHY' --> do not run commands holding TEXT
     <!-- docs-test: expect 'TEXT' N -->   commands holding TEXT exit N
     <!-- docs-test: file 'NAME' 'TEXT' --> write TEXT (\\n: newline) to NAME
   (several per comment, separated by ';').  Before an ```ini block, `sub`
   changes the job file written from it (to shorten its runtime).  A directive that matches no
   command fails: markers cannot go stale.  @LOOP@ in a command is a loop
   device made for the test (LOOPDEV; without one, the command is a SKIP
   with LOOPWHY).  After the substitutions no command may name /data or a
   /dev path other than that loop device.  An ```ini block whose first line
   is "; NAME" is written to NAME before any command runs; ${SCRATCH} is
   WORKDIR.
2. A paragraph, list item or table holding <!-- docs-test: options accepted -->
   or <!-- docs-test: options refused --> names options: every code span in
   it that reads as one (`name`, `name=value`, `--name`, `a|b` alternatives,
   `iotrial --cmdhelp=name`; a bare word may be an ioengine) must be accepted
   by `iotrial --parse-only`, or refused by it as unsupported or unknown.
   <!-- docs-test: options bare-us --> lists the time options whose bare
   number is microseconds: exactly those whose --cmdhelp says so.
3. An inline `iotrial: error: unsupported option 'X': ... (FILE:N)` quoted in
   a DOC is the exact message iotrial prints for X on line N of FILE.
Prints PASS/FAIL/SKIP lines.
"""
import os
import re
import time
import shlex
import subprocess
import sys

IOTRIAL, WORK, LOOP, LOOPWHY = sys.argv[1:5]
DOCS = sys.argv[5:]
MARK = re.compile(r"<!--\s*docs-test:\s*(.*?)\s*-->")
REFUSED = re.compile(r"unsupported (option|engine|value)|unknown (option|engine)|ambiguous option")
ITEM = re.compile(r"^\s*([-*]|\d+\.)\s")


def out(kind, name, why=""):
    print("%s %s%s" % (kind, name, (": " + why) if why else ""))
    sys.stdout.flush()


def run(cmd, timeout=300):
    env = dict(os.environ)
    env["PATH"] = os.path.join(WORK, ".bin") + os.pathsep + env.get("PATH", "")
    env["SCRATCH"] = WORK	# usage.md's jobs.fio puts its files in ${SCRATCH}
    try:
        p = subprocess.run(["sh", "-c", cmd], cwd=WORK, env=env, timeout=timeout,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return -1, "", "timed out after %d s" % timeout


def directives(text):
    """"sub 'a' 'b'; skip 'x' 'why'" -> [("sub", ["a", "b"]), ("skip", ["x", "why"])]"""
    lex = shlex.shlex(text, posix=True, punctuation_chars=";")
    lex.whitespace_split = True
    groups, cur = [], []
    for tok in lex:
        if tok == ";":
            if cur:
                groups.append(cur)
            cur = []
        else:
            cur.append(tok)
    if cur:
        groups.append(cur)
    return [(g[0], g[1:]) for g in groups]


def commands(lines):
    """The commands of a sh block: continuation lines joined, comments dropped."""
    cmds, cur = [], ""
    for ln in lines:
        s = ln.rstrip()
        if not cur and (not s.strip() or s.lstrip().startswith("#")):
            continue
        if s.endswith("\\"):
            cur += s[:-1] + " "
            continue
        cmds.append(" ".join((cur + s).split()))
        cur = ""
    if cur:
        cmds.append(" ".join(cur.split()))
    return cmds


# ---- option lists ---------------------------------------------------------
_seen = {}


def classify(token):
    """'accepted' or 'refused' (and why) for one option token: a job option
    (by its exact name: --cmdhelp, not the prefix matching of a run), its
    value, a process option, or a bare word naming an engine."""
    if token in _seen:
        return _seen[token]
    name, eq, _ = token.partition("=")
    rc, h, err = run("iotrial --cmdhelp=%s" % shlex.quote(name), 60)
    first = h.splitlines()[0] if h.strip() else ""
    if rc == 0 and "(refused)" in first:
        res = ("refused", first)
    elif rc == 0 and not eq:
        res = ("accepted", "")
    else:
        if rc == 0:
            # a value: under the option's engine when it is an engine's own
            eng = re.search(r"^  engines: ([\w]+)", h, re.M)
            args = ("--ioengine=%s " % eng.group(1) if eng else "") + shlex.quote("--" + token)
        elif not eq and classify_engine(name):
            args = None
        else:
            args = shlex.quote("--" + token)	# a process option (--client)
        if args is None:
            res = ("accepted", "")
        else:
            rc, _, err = run("iotrial --parse-only %s --name=t --size=1m" % args, 60)
            res = ("accepted", "") if rc == 0 or not REFUSED.search(err) else ("refused", err.strip())
    _seen[token] = res
    return res


def classify_engine(word):
    rc, _, err = run("iotrial --parse-only --name=t --size=1m --ioengine=%s" % shlex.quote(word), 60)
    return rc == 0 or not REFUSED.search(err)


def option_tokens(text):
    toks = []
    for span in re.findall(r"`([^`]+)`", MARK.sub("", text)):
        m = re.fullmatch(r"iotrial --cmdhelp=(\S+)", span)
        if m:
            span = m.group(1)
        m = re.fullmatch(r"-{0,2}([a-z][a-z0-9_]*)(=(\S*))?", span)
        if not m:
            continue
        if m.group(3) and "|" in m.group(3):
            toks += ["%s=%s" % (m.group(1), v) for v in m.group(3).split("|")]
        elif m.group(2) is not None:
            toks.append("%s=%s" % (m.group(1), m.group(3)))
        else:
            toks.append(m.group(1))
    return toks


def scope(lines, i):
    """The paragraph, list item or table around line i."""
    a = i
    while a > 0 and lines[a].strip() and not ITEM.match(lines[a]):
        a -= 1
    if not lines[a].strip():
        a += 1
    b = i + 1
    while b < len(lines) and lines[b].strip() and not ITEM.match(lines[b]):
        b += 1
    return "\n".join(lines[a:b])


def bare_us_all():
    rc, text, _ = run("iotrial --cmdhelp", 60)
    names = [ln.split()[0] for ln in text.splitlines() if ln.strip() and not ln.startswith(" ")][:-2]
    res = set()
    for n in names:
        rc, h, _ = run("iotrial --cmdhelp=%s" % shlex.quote(n), 60)
        if "bare number: microseconds" in h:
            res.add(n)
    return res


def check_lists(doc, lines):
    n = 0
    for i, ln in enumerate(lines):
        for m in MARK.finditer(ln):
            d = directives(m.group(1))
            if d[0][0] != "options":
                continue
            want = d[0][1][0]
            n += 1
            name = "docs_options_%s_%d" % (os.path.basename(doc).split(".")[0], i + 1)
            toks = option_tokens(scope(lines, i))
            if not toks:
                out("FAIL", name, "line %d: an option list naming no option" % (i + 1))
                continue
            if want == "bare-us":
                have = bare_us_all()
                bad = sorted(set(toks) ^ have)
                if bad:
                    out("FAIL", name, "line %d lists %s as bare microseconds; --cmdhelp says %s"
                        % (i + 1, sorted(set(toks)), sorted(have)))
                else:
                    out("PASS", name)
                continue
            bad = []
            for t in toks:
                got, msg = classify(t)
                if got != want:
                    bad.append("%s is %s%s" % (t, got, (" (" + msg + ")") if msg else ""))
            if bad:
                out("FAIL", name, "line %d says %s: %s" % (i + 1, want, "; ".join(bad)))
            else:
                print("PASS %s (%d %s: %s)" % (name, len(toks), want, " ".join(toks)))
    return n


# ---- quoted refusals ---------------------------------------------------------
def check_refusals(doc, text):
    for m in re.finditer(r"`(iotrial:\s+error:\s+unsupported\s+option\s+'([a-z_]+)'[^`]*\(([\w.]+):(\d+)\))`", text):
        quoted, opt, fname, line = m.group(1), m.group(2), m.group(3), int(m.group(4))
        name = "docs_refusal_%s" % opt
        path = os.path.join(WORK, ".refusal", fname)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        body = ["[global]", "ioengine=null", "size=1m", "", "[t]", "rw=read"]
        body += [""] * max(0, line - 1 - len(body))
        body = body[:line - 1] + ["%s=1" % opt]
        open(path, "w").write("\n".join(body) + "\n")
        rc, _, err = run("cd .refusal && iotrial --parse-only %s" % shlex.quote(fname), 60)
        quoted = " ".join(quoted.split())	# a quote may wrap in the doc
        if rc == 2 and err.strip() == quoted:
            out("PASS", name)
        else:
            out("FAIL", name, "%s quotes %r; iotrial says %r (exit %d)" % (os.path.basename(doc), quoted, err.strip(), rc))


# ---- commands ------------------------------------------------------------------
def fenced_blocks(lines):
    """Each ``` block of a document: (lang, index of its fence line, its
    lines, the docs-test directives of the markers right before it)."""
    pending, fence, block, lang = [], None, [], ""
    for i, ln in enumerate(lines):
        if fence is None:
            mf = re.match(r"^```(\w*)\s*$", ln)
            if mf:
                fence, lang, block = i, mf.group(1), []
                continue
            ms = re.fullmatch(r"\s*<!--\s*docs-test:\s*(.*?)\s*-->\s*", ln)
            if ms and not ms.group(1).startswith("options"):
                pending += directives(ms.group(1))
            elif ln.strip():
                pending = []
            continue
        if not re.match(r"^```\s*$", ln):
            block.append(ln)
            continue
        yield lang, fence, block, pending
        fence, pending = None, []


def check_commands(doc, lines):
    base = os.path.basename(doc).split(".")[0]
    k = 0
    for lang, fence, block, pending in fenced_blocks(lines):
        if lang == "sh":
            k = run_block(base, fence + 1, block, pending, k)
        elif pending and lang != "ini":	# an ini block's are write_ini_files'
            out("FAIL", "docs_%s_%d" % (base, fence + 1), "docs-test directives before a ```%s block" % lang)


def run_block(base, line, block, dirs, k):
    used = [False] * len(dirs)
    for n, (verb, args) in enumerate(dirs):
        if verb == "file":
            open(os.path.join(WORK, args[0]), "w").write(args[1].replace("\\n", "\n") + "\n")
            used[n] = True
    for cmd in commands(block):
        k += 1
        name = "docs_%s_cmd%d" % (base, k)
        short = cmd if len(cmd) <= 70 else cmd[:67] + "..."
        skip = None
        code = 0
        for n, (verb, args) in enumerate(dirs):
            if verb == "sub" and args[0] in cmd:
                cmd = cmd.replace(args[0], args[1])
                used[n] = True
        for n, (verb, args) in enumerate(dirs):
            if verb == "skip" and args[0] in cmd:
                skip, used[n] = args[1], True
            elif verb == "expect" and args[0] in cmd:
                code, used[n] = int(args[1]), True
        if skip:
            # excluded by the document itself, with its reason: not a test
            print("  (%s, line %d: not run: %s: %s)" % (name, line, short, skip))
            continue
        if "@LOOP@" in cmd:
            if not LOOP:
                out("SKIP", name, "%s needs a loop device: %s" % (short, LOOPWHY))
                continue
            cmd = cmd.replace("@LOOP@", LOOP)
        bad = [p for p in re.findall(r"/data\b|/dev/\w+", cmd) if p != LOOP]
        if bad:
            out("FAIL", name, "line %d: %s still names %s after the doc's substitutions: not run"
                % (line, short, bad))
            continue
        t0 = time.monotonic()
        rc, so, se = run(cmd)
        secs = time.monotonic() - t0
        errl = [l for l in se.splitlines() if l.startswith("iotrial: error:")]
        if rc != code or (code == 0 and errl):
            out("FAIL", name, "line %d: `%s` exited %d (wanted %d): %s"
                % (line, cmd, rc, code, (se.strip() or so.strip())[-400:]))
        else:
            print("PASS %s (%s; %.1f s)" % (name, short, secs))
    for n, u in enumerate(used):
        if not u:
            out("FAIL", "docs_%s_marker_%d" % (base, line),
                "directive %s %s matches no command of the block at line %d" % (dirs[n][0], dirs[n][1], line))
    return k


def write_ini_files(doc, lines):
    """Each ```ini block whose first line is "; NAME" is written to NAME, with
    the `sub` directives of the markers right before it applied."""
    base = os.path.basename(doc).split(".")[0]
    for lang, fence, block, pending in fenced_blocks(lines):
        if lang != "ini":
            continue
        m = re.match(r";\s*([\w.-]+\.\w+)\s*$", block[0]) if block else None
        text = "\n".join(block) + "\n"
        for verb, args in pending:
            if verb != "sub" or args[0] not in text or not m:
                out("FAIL", "docs_%s_marker_%d" % (base, fence + 1), "directive %s %s does not apply "
                    "to the job file at line %d" % (verb, args, fence + 1))
                continue
            text = text.replace(args[0], args[1])
        if m:
            open(os.path.join(WORK, m.group(1)), "w").write(text)


def main():
    os.makedirs(os.path.join(WORK, ".bin"), exist_ok=True)
    link = os.path.join(WORK, ".bin", "iotrial")
    if not os.path.exists(link):
        os.symlink(IOTRIAL, link)
    # the job files the docs show, named by their first line ("; jobs.fio"),
    # before any command: README runs usage.md's jobs.fio
    for doc in DOCS:
        write_ini_files(doc, open(doc).read().splitlines())
    nlists = 0
    for doc in DOCS:
        text = open(doc).read()
        lines = text.splitlines()
        nlists += check_lists(doc, lines)
        check_refusals(doc, text)
        check_commands(doc, lines)
    if nlists == 0:
        out("FAIL", "docs_options", "no option list is marked in %s" % " ".join(DOCS))


main()
