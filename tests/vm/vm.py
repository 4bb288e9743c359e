#!/usr/bin/env python3
"""The QEMU guest harness (tests/vm/README.md): build a small guest, boot it
with disks of several kinds, run commands in it, stop it.

  vm.sh build  [--iotrial BIN] [--fio BIN] [--extra PATH,...] [--out FILE]
  vm.sh boot   NAME [--disks KIND,...] [--size SIZE] [--initrd FILE] [...]
  vm.sh exec   NAME [--timeout S] [--merge] [--stdin] [--] CMD [ARG...]
  vm.sh sh     NAME [--timeout S] [--merge] [--stdin] SCRIPT
  vm.sh push   NAME HOSTFILE GUESTPATH
  vm.sh info   NAME            (vm.json: pid, sockets, disks)
  vm.sh qmp    NAME COMMAND [ARGUMENTS-JSON]
  vm.sh stop   NAME            (powers off, then kills; removes the state)
  vm.sh kill   NAME            (SIGKILL to QEMU, state kept: for tests)
  vm.sh list

Exit codes of exec/sh: the command's own; 124 when it timed out (it is
killed in the guest); 125 when the harness could not run it or get its
result back (no such guest, the guest went away, the agent did not answer).
Messages start with "vm.sh: error: " on stderr.
"""
import errno
import fcntl
import json
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
EXIT_TIMEOUT = 124
EXIT_HARNESS = 125

# The modules the guest needs, where the kernel has them as modules (the
# others are built in: NVMe, the block layer's integrity (PI) and zoned
# support always; virtio_pci and virtio_console in 6.12).  Loaded with their
# dependencies, each after what its depends= field names (_modules).
MODULES = ["virtio_ring", "virtio", "virtio_pci_modern_dev", "virtio_pci_legacy_dev",
           "virtio_pci", "virtio_blk", "virtio_console", "scsi_common", "scsi_mod",
           "sd_mod", "virtio_scsi"]

# One row per disk kind: the ids QMP and the guest map use.  Ids follow
# Proxmox's (drive-virtio0, virtio0, iothread-virtio0, drive-scsi0, scsi0),
# so a host-side reader sees the names it will see there.  NVMe namespaces
# share one controller, nvme0, with a fixed nsid per kind.
KINDS = {
    "vblk-iothread": dict(drive="drive-virtio0", qdev="virtio0", iothread="iothread-virtio0",
                          what="virtio-blk-pci with its own iothread"),
    "vblk": dict(drive="drive-virtio1", qdev="virtio1", iothread=None,
                 what="virtio-blk-pci in the main loop (no iothread)"),
    "scsi": dict(drive="drive-scsi0", qdev="scsi0", iothread=None,
                 what="scsi-hd on a virtio-scsi-pci controller (scsihw0)"),
    "nvme": dict(drive="drive-nvme0-ns1", qdev="nvme0-ns1", nsid=1, iothread=None,
                 what="NVMe namespace 1 of controller nvme0"),
    "zns": dict(drive="drive-nvme0-ns2", qdev="nvme0-ns2", nsid=2, iothread=None,
                what="zoned NVMe namespace 2 of controller nvme0"),
    "nvme-pi": dict(drive="drive-nvme0-ns3", qdev="nvme0-ns3", nsid=3, iothread=None,
                    what="NVMe namespace 3 of nvme0, 8 bytes of metadata, PI type 1"),
}
ZNS_PROPS = "zoned.zone_size=4M,zoned.zone_capacity=0,zoned.max_open=8,zoned.max_active=8"
PI_PROPS = "ms=8,mset=0,pi=1,pil=0"


class Fail(Exception):
    """A harness error: message, exit code."""

    def __init__(self, msg, code=EXIT_HARNESS):
        super().__init__(msg)
        self.code = code


def cache_dir():
    d = os.environ.get("IOTRIAL_VM_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or "/var/tmp", "iotrial-vm")
    os.makedirs(d, exist_ok=True)
    return d


def run_root():
    """Where guests' state lives: IOTRIAL_VM_RUN, else /tmp/iotrial-vm-UID."""
    return os.environ.get("IOTRIAL_VM_RUN") or "/tmp/iotrial-vm-%d" % os.getuid()


def state_dir(name):
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,32}", name or ""):
        raise Fail("guest name %r: use 1-32 letters, digits, '.', '_' or '-'" % name, 2)
    return os.path.join(run_root(), name)


# ---------------------------------------------------------------- the kernel

def _sh(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kw).stdout


def kernel_pkg():
    """The versioned cloud kernel package: IOTRIAL_VM_KERNEL_PKG, else what
    linux-image-cloud-amd64 depends on; None when apt knows neither."""
    pkg = os.environ.get("IOTRIAL_VM_KERNEL_PKG")
    if pkg:
        return pkg
    try:
        out = _sh(["apt-cache", "depends", "linux-image-cloud-amd64"])
    except (OSError, subprocess.CalledProcessError):
        return None
    m = re.search(r"Depends: (linux-image-\S+-cloud-amd64)\b", out)
    return m.group(1) if m else None


def _unpack_ko(path):
    """A module's bytes, decompressed (6.12's Debian kernels ship .ko.xz)."""
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".xz"):
        import lzma
        return lzma.decompress(data)
    if path.endswith(".zst"):
        return subprocess.run(["zstd", "-dc"], input=data, stdout=subprocess.PIPE,
                              check=True).stdout
    return data


def _modules(tree, out):
    """The modules of MODULES that @tree has (the others are built in), with
    what their depends= fields name, decompressed into @out; @out/order lists
    them in a load order (each after its dependencies)."""
    have = {}
    for root, _, files in os.walk(tree):
        for f in files:
            m = re.fullmatch(r"(.+)\.ko(\.xz|\.zst)?", f)
            if m:
                have[m.group(1).replace("-", "_")] = os.path.join(root, f)
    order, seen = [], set()

    def add(name):
        if name in seen or name not in have:
            return
        seen.add(name)
        data = _unpack_ko(have[name])
        m = re.search(rb"\0depends=([^\0]*)\0", data)
        for dep in (m.group(1).decode().split(",") if m and m.group(1) else []):
            add(dep.replace("-", "_"))
        with open(os.path.join(out, name + ".ko"), "wb") as f:
            f.write(data)
        order.append(name)
    for name in MODULES:
        add(name)
    with open(os.path.join(out, "order"), "w") as f:
        f.write("\n".join(order) + "\n")


# the cache's layout: a kernel unpacked by an older harness is unpacked again
DONE = "done.2"


def kernel():
    """(vmlinuz, module dir) of the cached kernel, downloaded and unpacked
    once into the cache: apt-get download + dpkg-deb -x, no root needed."""
    cache = cache_dir()
    pkg = kernel_pkg()
    if pkg is None:	# no apt metadata: any kernel cached earlier
        have = sorted(d for d in os.listdir(cache) if d.startswith("linux-image-"))
        if not have:
            raise Fail("no cloud kernel: apt-cache knows no linux-image-cloud-amd64 "
                       "(run apt-get update) and none is cached in " + cache)
        pkg = have[-1]
    kdir = os.path.join(cache, pkg)
    vmlinuz, mods = os.path.join(kdir, "vmlinuz"), os.path.join(kdir, "modules")
    if os.path.exists(os.path.join(kdir, DONE)):
        return vmlinuz, mods
    # one builder at a time (tests run side by side)
    with open(os.path.join(cache, ".lock"), "w") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        if os.path.exists(os.path.join(kdir, DONE)):
            return vmlinuz, mods
        tmp = tempfile.mkdtemp(dir=cache, prefix=".dl-")
        try:
            try:
                subprocess.run(["apt-get", "download", "-q", "-o", "APT::Sandbox::User=" +
                                ("root" if os.getuid() == 0 else os.environ.get("USER", "")),
                                pkg], cwd=tmp, check=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, timeout=300)
            except subprocess.CalledProcessError as e:
                raise Fail("apt-get download %s failed: %s" % (pkg, e.stderr.strip()[-300:]))
            deb = [f for f in os.listdir(tmp) if f.endswith(".deb")][0]
            x = os.path.join(tmp, "x")
            subprocess.run(["dpkg-deb", "-x", os.path.join(tmp, deb), x], check=True)
            os.makedirs(os.path.join(tmp, "k", "modules"))
            boot = os.path.join(x, "boot")
            vz = [f for f in os.listdir(boot) if f.startswith("vmlinuz-")][0]
            shutil.copy(os.path.join(boot, vz), os.path.join(tmp, "k", "vmlinuz"))
            _modules(os.path.join(x, "lib", "modules"), os.path.join(tmp, "k", "modules"))
            with open(os.path.join(tmp, "k", DONE), "w") as f:
                f.write(vz + "\n")
            shutil.rmtree(kdir, ignore_errors=True)
            os.rename(os.path.join(tmp, "k"), kdir)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return vmlinuz, mods


# ---------------------------------------------------------------- the initramfs

def _libs(binary):
    """The shared objects ldd lists for @binary, the loader included."""
    out = _sh(["ldd", binary])
    libs = []
    for line in out.splitlines():
        m = re.search(r"=>\s*(/\S+)", line) or re.match(r"\s*(/\S+)", line)
        if m:
            libs.append(m.group(1))
    return libs


def _put(root, src, dst):
    """Copy @src's content (symlinks followed) to @dst under @root."""
    d = os.path.join(root, dst.lstrip("/"))
    os.makedirs(os.path.dirname(d), exist_ok=True)
    if not os.path.exists(d):
        shutil.copy(src, d)
    return d


# Parts of a Python stdlib (an --extra folder) that no script run here
# imports: left out, they would double the initramfs.
EXTRA_SKIP = {"__pycache__", "test", "tests", "idlelib", "tkinter", "turtledemo",
              "ensurepip", "lib2to3", "pydoc_data", "site-packages", "dist-packages"}


def _is_elf(path):
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def _extra(root, path):
    """Copy the host's @path (a program, a file or a folder) into @root at the
    same path, with the libraries ldd lists for each ELF file in it.  A
    program in /usr/bin or /usr/sbin is also linked from /bin or /sbin, in
    place of busybox's applet of that name, so `#!/bin/bash` and `grep -P`
    find the real ones (fio's own scripts need them: tests/fio-suite/zbd.sh).
    busybox's sh still prefers its applets; bash searches PATH."""
    if "/" not in path:
        found = shutil.which(path) or shutil.which(path, path="/usr/sbin:/sbin")
        if not found:
            raise Fail("--extra %s: no such program on this host" % path, 2)
        path = found
    path = os.path.abspath(path)
    if not os.path.exists(path):
        raise Fail("--extra %s: no such file or folder on this host" % path, 2)
    files = []
    if os.path.isdir(path):
        for r, dirs, fs in os.walk(path):
            dirs[:] = [d for d in dirs if d not in EXTRA_SKIP]
            files += [os.path.join(r, f) for f in fs if os.path.exists(os.path.join(r, f))]
    else:
        files = [path]
        top, name = os.path.split(path)
        if top in ("/usr/bin", "/usr/sbin"):
            link = os.path.join(root, top[len("/usr/"):], name)
            if os.path.islink(link) and os.readlink(link) == "busybox":
                os.unlink(link)
            if not os.path.lexists(link):
                os.symlink(path, link)
    for f in files:
        _put(root, f, f)
        if _is_elf(f):
            try:
                for lib in _libs(f):
                    _put(root, lib, lib)
            except subprocess.CalledProcessError:
                pass	# static, or not a program: no libraries


def build(out, iotrial=None, fio=None, extra=()):
    """Write the initramfs (an uncompressed newc cpio: nothing to inflate
    under TCG) to @out: busybox, iotrial and fio with their libraries, the
    virtio modules, init and the agent, and the host's @extra paths (_extra).
    Returns @out."""
    iotrial = iotrial or os.path.join(REPO, "build", "iotrial")
    if not os.access(iotrial, os.X_OK):
        raise Fail("no iotrial binary at %s (make first, or --iotrial BIN)" % iotrial, 2)
    if fio is None:
        fio = shutil.which("fio")
    busybox = shutil.which("busybox")
    if not busybox or subprocess.run(["ldd", busybox], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL).returncode == 0:
        # ldd fails on a static binary: the dynamic busybox needs libc
        raise Fail("no static busybox (apt-get install busybox-static; scripts/deps.sh)")
    if not shutil.which("cpio"):
        raise Fail("no cpio (apt-get install cpio; scripts/deps.sh)")
    _, mods = kernel()
    root = tempfile.mkdtemp(prefix="iotrial-vm-root.")
    try:
        for d in ("bin", "sbin", "usr/bin", "usr/local/bin", "etc", "proc", "sys", "dev",
                  "tmp", "run", "root", "lib/modules"):
            os.makedirs(os.path.join(root, d), exist_ok=True)
        bb = _put(root, busybox, "/bin/busybox")
        for applet in _sh([bb, "--list"]).split():
            if applet != "busybox" and not os.path.exists(os.path.join(root, "bin", applet)):
                os.symlink("busybox", os.path.join(root, "bin", applet))
        for b, dst in ((iotrial, "/usr/bin/iotrial"), (fio, "/usr/bin/fio")):
            if not b:
                continue
            _put(root, b, dst)
            for lib in _libs(b):
                _put(root, lib, lib)
        for f in os.listdir(mods):
            _put(root, os.path.join(mods, f), "/lib/modules/" + f)
        for p in extra:
            _extra(root, p)
        for src, dst in (("init", "/init"), ("agent", "/sbin/iotrial-vm-agent")):
            os.chmod(_put(root, os.path.join(HERE, "guest", src), dst), 0o755)
        with open(os.path.join(root, "etc", "passwd"), "w") as f:
            f.write("root:x:0:0:root:/root:/bin/sh\n")
        with open(os.path.join(root, "etc", "group"), "w") as f:
            f.write("root:x:0:\n")
        # the loader's cache, so libraries in RUNPATH-less subfolders resolve
        dirs = sorted({os.path.dirname(p) for p in
                       (os.path.join(r, f)[len(root):] for r, _, fs in os.walk(root)
                        for f in fs if ".so" in f)})
        with open(os.path.join(root, "etc", "ld.so.conf"), "w") as f:
            f.write("\n".join(dirs) + "\n")
        ldconfig = shutil.which("ldconfig") or "/sbin/ldconfig"
        if os.path.exists(ldconfig):
            subprocess.run([ldconfig, "-r", root], stderr=subprocess.DEVNULL)
        files = subprocess.run(["find", "."], cwd=root, check=True, stdout=subprocess.PIPE).stdout
        tmp = out + ".tmp"
        with open(tmp, "wb") as f:
            subprocess.run(["cpio", "-o", "-H", "newc", "--quiet"], cwd=root, input=files,
                           stdout=f, check=True)
        os.rename(tmp, out)
        with open(out + ".kernel", "w") as f:	# boot checks it matches
            f.write(os.path.basename(os.path.dirname(mods)) + "\n")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return out


# ---------------------------------------------------------------- boot

def _size_bytes(s):
    m = re.fullmatch(r"(\d+)([KMG]?)", s.upper().rstrip("B").rstrip("I"))
    if not m:
        raise Fail("size %r: give bytes or NNK/NNM/NNG" % s, 2)
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2)]


def qemu_args(name, d, disks, size, initrd, accel, aio, mem, cpus, lifetime, zns_props,
              pi_props, backing):
    """The QEMU command line for guest @name with state dir @d."""
    vmlinuz, _ = kernel()
    a = ["qemu-system-x86_64", "-name", name + ",debug-threads=on", "-nodefaults",
         "-no-user-config", "-display", "none", "-no-reboot", "-m", str(mem),
         "-smp", str(cpus), "-serial", "file:" + os.path.join(d, "console.log"),
         "-qmp", "unix:%s,server=on,wait=off" % os.path.join(d, "qmp.sock"),
         "-daemonize", "-pidfile", os.path.join(d, "qemu.pid")]
    if accel == "kvm":
        a += ["-accel", "kvm", "-cpu", "max"]
    else:
        a += ["-accel", "tcg", "-cpu", "max"]
    a += ["-device", "virtio-serial-pci,id=vser0"]
    for ch in ("cmd", "ctl"):
        a += ["-chardev", "socket,id=ch%s,path=%s,server=on,wait=off" %
              (ch, os.path.join(d, ch + ".sock")),
              "-device", "virtserialport,bus=vser0.0,chardev=ch%s,name=iotrial.%s" % (ch, ch)]
    info = []
    nvme = False
    for kind in disks:
        k = KINDS[kind]
        img = os.path.join(backing, "disk-%s.img" % kind)
        with open(img, "wb") as f:
            f.truncate(size)
        a += ["-drive", "file=%s,if=none,id=%s,format=raw,cache=none,aio=%s" %
              (img, k["drive"], aio)]
        if kind.startswith("vblk"):
            if k["iothread"]:
                a += ["-object", "iothread,id=" + k["iothread"]]
            a += ["-device", "virtio-blk-pci,drive=%s,id=%s,serial=%s%s" %
                  (k["drive"], k["qdev"], k["qdev"],
                   ",iothread=" + k["iothread"] if k["iothread"] else "")]
        elif kind == "scsi":
            a += ["-device", "virtio-scsi-pci,id=scsihw0",
                  "-device", "scsi-hd,bus=scsihw0.0,channel=0,scsi-id=0,lun=0,drive=%s,"
                  "id=%s,serial=%s" % (k["drive"], k["qdev"], k["qdev"])]
        else:
            if not nvme:
                a += ["-device", "nvme,id=nvme0,serial=iotrial-nvme0"]
                nvme = True
            extra = {"zns": ",zoned=true" + ("," + zns_props if zns_props else ""),
                     "nvme-pi": "," + pi_props if pi_props else ""}.get(kind, "")
            a += ["-device", "nvme-ns,drive=%s,bus=nvme0,nsid=%d,id=%s%s" %
                  (k["drive"], k["nsid"], k["qdev"], extra)]
        info.append(dict(kind=kind, drive=k["drive"], qdev=k["qdev"], iothread=k["iothread"],
                         file=img, what=k["what"]))
    a += ["-kernel", vmlinuz, "-initrd", initrd, "-append",
          "console=ttyS0 panic=-1 loglevel=4 mitigations=off iotrial.disks=%d "
          "iotrial.lifetime=%d" % (len(disks), lifetime)]
    return a, info


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def _console_tail(d, n=5):
    try:
        with open(os.path.join(d, "console.log"), "rb") as f:
            lines = f.read().decode("utf-8", "replace").splitlines()
        return " | ".join(l.strip() for l in lines[-n:] if l.strip())
    except OSError:
        return "(no console log)"


def host_cpus(spec):
    """The host CPUs QEMU may run on (--host-cpus): "one" (the default), "all"
    (those this process may use), or a list such as 1 or 0-1,3.

    Why one by default (tests/vm/README.md, "NVMe under TCG"): Debian's QEMU
    7.2 now and then loses every NVMe command in flight when its vCPU thread
    and its main loop run on two host CPUs at once; the guest times them out
    after 30 s and resets the controller 30 s later (passthrough commands end
    with EINTR).  On one host CPU the two never run at once: 0 of 10 stress
    boots lost a command, against 1 of 7 unpinned.  The CPU is picked among
    the allowed ones by the booting process's pid, so guests started side by
    side tend to land on different CPUs."""
    allowed = sorted(os.sched_getaffinity(0))
    if spec == "all":
        return allowed
    if spec == "one":
        return [allowed[os.getpid() % len(allowed)]]
    want = set()
    for part in spec.split(","):
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not m or (m.group(2) and int(m.group(2)) < int(m.group(1))):
            raise Fail("--host-cpus %r: one, all, or a list of CPUs such as 0-1,3" % spec, 2)
        want.update(range(int(m.group(1)), int(m.group(2) or m.group(1)) + 1))
    bad = sorted(want - set(allowed))
    if bad:
        raise Fail("--host-cpus %s: CPU %d is not one this process may use (%s)" %
                   (spec, bad[0], ",".join(map(str, allowed))), 2)
    return sorted(want)


def boot(name, disks, size="64M", initrd=None, accel=None, aio="native", mem=768, cpus=1,
         timeout=120, lifetime=3600, iotrial=None, fio=None, zns_props=ZNS_PROPS,
         pi_props=PI_PROPS, backing=None, extra=(), host_cpu_spec="one"):
    """Boot guest @name and wait for its agent; returns vm.json's dict."""
    d = state_dir(name)
    if os.path.exists(os.path.join(d, "vm.json")):
        try:
            if _pid_alive(load(name)["pid"]):
                raise Fail("guest %s is already running (vm.sh stop %s)" % (name, name), 2)
        except (KeyError, ValueError):
            pass
        shutil.rmtree(d, ignore_errors=True)
    for k in disks:
        if k not in KINDS:
            raise Fail("disk kind %r: one of %s" % (k, ", ".join(KINDS)), 2)
    if not shutil.which("qemu-system-x86_64"):
        raise Fail("qemu-system-x86_64 is missing (apt-get install qemu-system-x86; "
                   "scripts/deps.sh)")
    accel = accel or os.environ.get("IOTRIAL_VM_ACCEL") or "tcg"
    if accel not in ("tcg", "kvm", "auto"):
        raise Fail("accel %r: tcg, kvm or auto" % accel, 2)
    os.makedirs(d, exist_ok=True)
    if len(os.path.join(d, "qmp.sock")) > 100:
        raise Fail("state dir %s: too long for a unix socket path (IOTRIAL_VM_RUN)" % d, 2)
    backing = backing or d
    os.makedirs(backing, exist_ok=True)
    pin = host_cpus(host_cpu_spec)
    if not initrd:
        initrd = build(os.path.join(d, "initrd.cpio"), iotrial, fio, extra)
    try:
        with open(initrd + ".kernel") as f:
            built_for = f.read().strip()
    except OSError:
        built_for = None
    kpkg = os.path.basename(os.path.dirname(kernel()[0]))
    if built_for and built_for != kpkg:
        raise Fail("initrd %s holds the modules of %s, not of %s (build it again, or "
                   "set IOTRIAL_VM_KERNEL_PKG=%s)" % (initrd, built_for, kpkg, built_for), 2)
    tries = ["kvm", "tcg"] if accel == "auto" else [accel]
    if "kvm" in tries and not os.access("/dev/kvm", os.R_OK | os.W_OK):
        tries.remove("kvm")
        if not tries:
            raise Fail("accel kvm: /dev/kvm is missing or not accessible")
    for i, acc in enumerate(tries):
        args, info = qemu_args(name, d, disks, _size_bytes(size), os.path.abspath(initrd), acc,
                               aio, mem, cpus, lifetime, zns_props, pi_props, backing)
        for s in ("qmp.sock", "cmd.sock", "ctl.sock", "qemu.pid", "console.log"):
            try:
                os.unlink(os.path.join(d, s))
            except FileNotFoundError:
                pass
        with open(os.path.join(d, "qemu.cmdline"), "w") as f:
            f.write(" ".join(shlex.quote(x) for x in args) + "\n")
        # -daemonize forks: every thread QEMU starts inherits the affinity
        r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           preexec_fn=lambda: os.sched_setaffinity(0, pin))
        if r.returncode != 0:
            raise Fail("QEMU did not start (%s): %s" % (" ".join(args[:1]),
                                                         r.stdout.strip()[-500:]))
        with open(os.path.join(d, "qemu.pid")) as f:
            pid = int(f.read().strip())
        vm = dict(name=name, pid=pid, accel=acc, dir=d,
                  qmp=os.path.join(d, "qmp.sock"), cmd=os.path.join(d, "cmd.sock"),
                  ctl=os.path.join(d, "ctl.sock"), console=os.path.join(d, "console.log"),
                  initrd=os.path.abspath(initrd), aio=aio, cache="none", size=_size_bytes(size),
                  host_cpus=pin,
                  threads={"main": "qemu-system-x86", "vcpu": "CPU N/TCG" if acc == "tcg"
                           else "CPU N/KVM", "iothread": "IO <iothread id>",
                           "worker": "worker", "rcu": "call_rcu"},
                  disks=info)
        _save(d, vm)
        # the probe: a short wait under "auto" when KVM is tried first
        wait = min(timeout, 20) if (accel == "auto" and i + 1 < len(tries)) else timeout
        try:
            rc, out, err = Guest(name).run("cat /run/iotrial-vm/disks", timeout=wait)
        except Fail as e:
            _kill(pid)
            if i + 1 < len(tries):
                continue
            raise Fail("guest %s did not come up under %s in %ds: %s; console: %s" %
                       (name, acc, wait, e, _console_tail(d)))
        guest = {}
        for line in out.decode().splitlines():
            w = line.split()
            if len(w) >= 2:
                guest[w[0]] = w[1:]
        for disk in info:
            g = guest.get(disk["qdev"], [])
            disk["guest_dev"] = g[0] if g else None
            disk["guest_char"] = g[1] if len(g) > 1 else None
        missing = [x["qdev"] for x in info if not x["guest_dev"]]
        _save(d, vm)
        if missing:
            raise Fail("guest %s is up but does not see %s (console: %s)" %
                       (name, ", ".join(missing), _console_tail(d)))
        return vm
    raise Fail("unreachable")


def _save(d, vm):
    tmp = os.path.join(d, "vm.json.tmp")
    with open(tmp, "w") as f:
        json.dump(vm, f, indent=2)
        f.write("\n")
    os.rename(tmp, os.path.join(d, "vm.json"))


def load(name):
    d = state_dir(name)
    try:
        with open(os.path.join(d, "vm.json")) as f:
            return json.load(f)
    except FileNotFoundError:
        raise Fail("no guest %s (no %s/vm.json: vm.sh boot %s first)" % (name, d, name))
    except ValueError as e:
        raise Fail("guest %s: %s/vm.json is unreadable: %s" % (name, d, e))


def _kill(pid, sig=signal.SIGKILL):
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def stop(name, keep=False):
    """Power the guest off (QMP quit), SIGKILL if it lingers; remove its state."""
    d = state_dir(name)
    try:
        vm = load(name)
    except Fail:
        shutil.rmtree(d, ignore_errors=True)
        return
    pid = vm["pid"]
    if _pid_alive(pid):
        try:
            qmp(name, "quit", timeout=3)
        except Fail:
            pass
        end = time.monotonic() + 3
        while _pid_alive(pid) and time.monotonic() < end:
            time.sleep(0.05)
        _kill(pid)
        end = time.monotonic() + 3
        while _pid_alive(pid) and time.monotonic() < end:
            time.sleep(0.05)
    if not keep:
        shutil.rmtree(d, ignore_errors=True)


# ---------------------------------------------------------------- QMP

def qmp(name, command, arguments=None, timeout=10):
    """One QMP command on the guest's socket; returns its "return" value."""
    vm = load(name)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    try:
        s.connect(vm["qmp"])
        f = s.makefile("rwb")

        def reply():
            while True:
                line = f.readline()
                if not line:
                    raise Fail("QMP of %s closed the connection" % name)
                m = json.loads(line)
                if "event" not in m:
                    return m
        reply()	# the greeting
        for c, a in (("qmp_capabilities", None), (command, arguments)):
            msg = {"execute": c}
            if a is not None:
                msg["arguments"] = a
            f.write(json.dumps(msg).encode() + b"\n")
            f.flush()
            m = reply()
            if "error" in m:
                raise Fail("QMP %s: %s" % (c, m["error"].get("desc", m["error"])))
        return m.get("return")
    except (OSError, ValueError) as e:
        raise Fail("QMP of %s (%s): %s" % (name, vm["qmp"], e))
    finally:
        s.close()


# ---------------------------------------------------------------- the channel

class Guest:
    """The command channel to a booted guest (the agent's protocol is in
    guest/agent).  One request at a time per guest: a lock file serialises
    callers on the host."""

    def __init__(self, name):
        self.name = name
        self.vm = load(name)

    def _connect(self, path, deadline):
        while True:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(path)
                return s
            except OSError as e:
                s.close()
                if not _pid_alive(self.vm["pid"]):
                    raise Fail("guest %s is not running (QEMU pid %d is gone; console: %s)" %
                               (self.name, self.vm["pid"], _console_tail(self.vm["dir"])))
                if time.monotonic() >= deadline:
                    raise Fail("cannot connect to %s: %s" % (path, e))
                time.sleep(0.05)

    def signal(self, rid, sig):
        """Send @sig (a name: INT, TERM, KILL) to request @rid's process group."""
        s = self._connect(self.vm["ctl"], time.monotonic() + 5)
        try:
            s.settimeout(5)
            s.sendall(("SIG %s %s\n" % (rid, sig)).encode())
        finally:
            s.close()

    def run(self, script, stdin=b"", merge=False, timeout=600.0, on_id=None):
        """Run the sh @script in the guest; returns (rc, stdout, stderr) as
        bytes.  Raises Fail: EXIT_TIMEOUT when it ran over @timeout seconds
        (it is killed in the guest), EXIT_HARNESS when the guest is gone or
        does not answer.  @on_id(rid) is called once the request id is known
        (for signals)."""
        deadline = time.monotonic() + timeout
        rid = secrets.token_hex(8)
        if on_id:
            on_id(rid)
        body = script.encode() if isinstance(script, str) else script
        req = b"REQ %s %s %d %d\n" % (rid.encode(), b"m" if merge else b"-", len(body),
                                        len(stdin)) + body + stdin + b"END %s\n" % rid.encode()
        lock = open(os.path.join(self.vm["dir"], "cmd.lock"), "w")
        try:
            while True:	# the lock, within the deadline
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise Fail("guest %s: another command held the channel for %gs" %
                                   (self.name, timeout), EXIT_TIMEOUT)
                    time.sleep(0.05)
            s = self._connect(self.vm["cmd"], deadline)
            try:
                s.settimeout(max(0.1, deadline - time.monotonic()))
                s.sendall(req)
                return self._replies(s, rid, deadline, timeout)
            finally:
                s.close()
        finally:
            lock.close()

    def _replies(self, s, rid, deadline, timeout):
        pat = re.compile(rb"(ACK|OUT|ERR|RC|BAD) " + rid.encode() + rb"(?: ([^\n]*))?\n")
        buf = b""
        acked = False
        got = {}
        killed = False
        while True:
            m = pat.search(buf)
            if m:
                tag, arg = m.group(1), m.group(2)
                if tag in (b"OUT", b"ERR"):
                    n = int(arg)
                    if len(buf) - m.end() >= n:
                        got[tag] = buf[m.end():m.end() + n]
                        buf = buf[m.end() + n:]
                        continue
                else:
                    buf = buf[m.end():]
                    if tag == b"ACK":
                        acked = True
                    elif tag == b"BAD":
                        raise Fail("guest %s's agent refused the request: %s" %
                                   (self.name, arg.decode(errors="replace")))
                    else:
                        if killed:
                            raise Fail("guest %s: the command timed out after %gs "
                                       "(killed in the guest)" % (self.name, timeout),
                                       EXIT_TIMEOUT)
                        return int(arg), got.get(b"OUT", b""), got.get(b"ERR", b"")
                    continue
            # stale bytes from an earlier, abandoned request are never ours: keep
            # only a tail that could still be the start of our next header
            if not m and len(buf) > 1 << 16:
                buf = buf[-64:]
            now = time.monotonic()
            if now >= deadline:
                if not acked:
                    raise Fail("guest %s's agent did not take the request in %gs (busy "
                               "with an earlier command, or the guest hung; console: %s)" %
                               (self.name, timeout, _console_tail(self.vm["dir"])),
                               EXIT_TIMEOUT)
                if killed:
                    raise Fail("guest %s: the command timed out after %gs and did not end "
                               "when killed" % (self.name, timeout), EXIT_TIMEOUT)
                killed = True
                try:
                    self.signal(rid, "KILL")
                except Fail:
                    pass
                deadline = now + 10	# its result still comes back: read it
                continue
            s.settimeout(min(1.0, max(0.01, deadline - now)))
            try:
                chunk = s.recv(1 << 16)
            except socket.timeout:
                if not _pid_alive(self.vm["pid"]):
                    chunk = b""
                else:
                    continue
            except OSError as e:
                raise Fail("guest %s: the channel failed: %s" % (self.name, e))
            if not chunk:
                gone = not _pid_alive(self.vm["pid"])
                raise Fail("guest %s went away mid-command (%s; console: %s)" %
                           (self.name, "QEMU pid %d exited" % self.vm["pid"] if gone
                            else "the channel closed", _console_tail(self.vm["dir"])))
            buf += chunk


def exec_argv(name, argv, stdin=b"", merge=False, timeout=600.0, script=False):
    """Run @argv (or a script when @script) in guest @name with signals sent
    on: SIGINT/SIGTERM to this process reach the command's process group, so
    an iotrial run ends early as it would on the host.  Returns the rc."""
    g = Guest(name)
    cmd = argv[0] if script else " ".join(shlex.quote(a) for a in argv)
    state = {"rid": None, "n": 0}

    def forward(signum, _frame):
        state["n"] += 1
        if state["rid"]:
            try:
                g.signal(state["rid"], "KILL" if state["n"] > 2 else
                         signal.Signals(signum).name[3:])
            except Fail:
                pass
    old = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        rc, out, err = g.run(cmd, stdin=stdin, merge=merge, timeout=timeout,
                             on_id=lambda r: state.update(rid=r))
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    sys.stdout.buffer.write(out)
    sys.stdout.buffer.flush()
    sys.stderr.buffer.write(err)
    sys.stderr.buffer.flush()
    return rc


def push(name, src, dst, timeout=120):
    with open(src, "rb") as f:
        data = f.read()
    rc, _, err = Guest(name).run('mkdir -p "$(dirname %s)" && cat > %s' %
                                 (shlex.quote(dst), shlex.quote(dst)), stdin=data,
                                 timeout=timeout)
    if rc:
        raise Fail("push %s to %s:%s failed: %s" % (src, name, dst, err.decode(errors="replace")))


# ---------------------------------------------------------------- command line

def _opts(argv, spec):
    """A tiny option reader: @spec maps --name to a default (bool: a flag).
    Stops at "--" or the first word that is not an option."""
    o = dict((k.lstrip("-").replace("-", "_"), v) for k, v in spec.items())
    rest = list(argv)
    while rest:
        a = rest[0]
        if a == "--":
            rest.pop(0)
            break
        if not a.startswith("--"):
            break
        k, eq, v = a.partition("=")
        if k not in spec:
            raise Fail("unknown option %s" % k, 2)
        rest.pop(0)
        key = k[2:].replace("-", "_")
        if isinstance(spec[k], bool):
            o[key] = True
            continue
        if not eq:
            if not rest:
                raise Fail("%s needs a value" % k, 2)
            v = rest.pop(0)
        o[key] = type(spec[k])(v) if spec[k] is not None else v
    return o, rest


def main(argv):
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(__doc__.strip())
        return 0 if argv else 2
    cmd, args = argv[0], argv[1:]
    if cmd == "build":
        o, _ = _opts(args, {"--iotrial": None, "--fio": None, "--out": None, "--extra": ""})
        out = o["out"] or os.path.join(tempfile.mkdtemp(prefix="iotrial-vm-initrd."),
                                        "initrd.cpio")
        print(build(out, o["iotrial"], o["fio"], [p for p in o["extra"].split(",") if p]))
        return 0
    if cmd == "kernel":
        print("%s %s" % kernel())
        return 0
    if cmd == "list":
        r = run_root()
        for n in sorted(os.listdir(r)) if os.path.isdir(r) else []:
            try:
                vm = load(n)
                print("%s pid %d %s" % (n, vm["pid"], "running" if _pid_alive(vm["pid"])
                                        else "gone"))
            except Fail:
                pass
        return 0
    if not args:
        raise Fail("%s: which guest? (vm.sh %s NAME ...)" % (cmd, cmd), 2)
    name, args = args[0], args[1:]
    if cmd == "boot":
        o, rest = _opts(args, {"--disks": "vblk-iothread,nvme", "--size": "64M",
                               "--initrd": None, "--accel": None, "--aio": "native",
                               "--mem": 768, "--cpus": 1, "--timeout": 120.0,
                               "--lifetime": 3600, "--iotrial": None, "--fio": None,
                               "--zns-props": ZNS_PROPS, "--pi-props": PI_PROPS,
                               "--backing": None, "--extra": "", "--host-cpus": "one"})
        if rest:
            raise Fail("boot: unexpected %s" % rest[0], 2)
        disks = [k for k in o["disks"].split(",") if k]
        vm = boot(name, disks, o["size"], o["initrd"], o["accel"], o["aio"], o["mem"],
                  o["cpus"], o["timeout"], o["lifetime"], o["iotrial"], o["fio"],
                  o["zns_props"], o["pi_props"], o["backing"],
                  [p for p in o["extra"].split(",") if p], o["host_cpus"])
        print(os.path.join(vm["dir"], "vm.json"))
        return 0
    if cmd in ("exec", "sh"):
        # IOTRIAL_VM_TIMEOUT: the default for a whole test (tests/e2e/lib.sh),
        # so that a stalled guest fails that step, not the test's 600 s
        o, rest = _opts(args, {"--timeout": float(os.environ.get("IOTRIAL_VM_TIMEOUT") or 600),
                               "--merge": False, "--stdin": False})
        if not rest:
            raise Fail("%s: no command" % cmd, 2)
        if cmd == "sh" and len(rest) != 1:
            raise Fail("sh: give the script as one argument", 2)
        data = sys.stdin.buffer.read() if o["stdin"] else b""
        return exec_argv(name, rest, data, o["merge"], o["timeout"], script=cmd == "sh")
    if cmd == "push":
        if len(args) != 2:
            raise Fail("push NAME HOSTFILE GUESTPATH", 2)
        push(name, args[0], args[1])
        return 0
    if cmd == "info":
        json.dump(load(name), sys.stdout, indent=2)
        print()
        return 0
    if cmd == "qmp":
        if not args:
            raise Fail("qmp NAME COMMAND [ARGUMENTS-JSON]", 2)
        r = qmp(name, args[0], json.loads(args[1]) if len(args) > 1 else None)
        json.dump(r, sys.stdout, indent=2)
        print()
        return 0
    if cmd == "stop":
        stop(name)
        return 0
    if cmd == "kill":
        _kill(load(name)["pid"])
        return 0
    raise Fail("unknown command %s (vm.sh --help)" % cmd, 2)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Fail as e:
        print("vm.sh: error: %s" % e, file=sys.stderr)
        sys.exit(e.code)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:	# a reader of stdout that stopped early (| head)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(141)
