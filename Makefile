# iotrial: plain Makefile.
#   make                  build build/iotrial
#   make check            build and run every test (unit + end-to-end)
#   make check-fast       unit tests and the e2e scripts marked check-fast (no
#                         real I/O run): under 2 minutes, for editing
#   make check-loaded     the same with two CPU hogs and a disk writer beside it
#   make SANITIZE=1 check the same under ASan + UBSan (objects in build/san)
#   make install PREFIX=/usr/local
#   make V=1              show full command lines
#   make RBD=0|1          leave out / require the rbd engine (default: when found)
# Layout: src/ is the library (libiotrial.a), cli/ the thin command line;
# src/ is folders ranked from lib/ up to mpi/ (docs/design.md, "The floors"):
# nothing uses a folder above its own, checked by `make check-layers` (make check).
# Tests (tests/README): tests/unit/<folder>/test_<module>*.c are programs, in
# the folder of their module's src/<folder> (picked up without editing a list),
# tests/e2e/<area>_*.sh are scripts; tests/run.sh runs them all and prints the tally.

CC ?= cc
PREFIX ?= /usr/local
CFLAGS ?= -O2 -g
WERROR ?= 1
SANITIZE ?= 0

WARN := -Wall -Wextra -Wshadow -Wno-unused-parameter
ifeq ($(WERROR),1)
WARN += -Werror
endif
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -pthread -Isrc -Icli $(WARN) -MMD -MP
# Libraries through pkg-config where Debian ships a .pc file (libaio has none).
PKG_DEPS := liburing jansson blkid nettle zlib libxxhash sqlite3
PKG_CFLAGS := $(shell pkg-config --cflags $(PKG_DEPS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKG_DEPS) 2>/dev/null || echo -luring -ljansson -lblkid -lnettle -lz -lxxhash -lsqlite3)
BASE_CFLAGS += $(PKG_CFLAGS)
LIBS := $(PKG_LIBS) -laio -lpthread -lm
LIBS += -lrt  # posixaio: aio_* live in librt before glibc 2.34
# verify= checksums: md5/sha (Nettle), crc32 (zlib), xxhash, in PKG_DEPS;
# the results history (src/history/, docs/history.md): SQLite

ifeq ($(SANITIZE),1)
BUILD := build/san
BASE_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
else
BUILD := build
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

# MPI mode (docs/mpi.md): MPI=auto (default) builds it in when pkg-config
# finds ompi-c or mpich; MPI=1 requires it, MPI=0 leaves it out.  Built in,
# it only acts under a launcher (mpirun/mpiexec/srun): started plainly the
# binary never calls MPI and runs as one rank, exactly as the plain build.
MPI ?= auto
ifneq ($(MPI),0)
MPI_PC := $(firstword $(foreach p,ompi-c mpich,$(if $(shell pkg-config --exists $(p) 2>/dev/null && echo y),$(p))))
ifeq ($(MPI_PC),)
ifeq ($(MPI),1)
$(error MPI=1 but pkg-config finds neither ompi-c nor mpich (install libopenmpi-dev))
endif
else
BASE_CFLAGS += -DIOTRIAL_MPI $(shell pkg-config --cflags $(MPI_PC))
LIBS += $(shell pkg-config --libs $(MPI_PC))
endif
endif

# The rbd engine (src/io/engines/engine_rbd.c, docs/ceph.md): RBD=auto (default) builds
# it in when librbd and librados are there: pkg-config when a .pc file
# exists, else a compile-and-link probe (Debian's librbd-dev ships none).
# RBD=1 requires them, RBD=0 leaves it out; then ioengine=rbd is refused,
# naming the missing library.  The probe links them; iotrial does not: the
# engine loads them when a job uses it (dlopen), so that Ceph's 30 C++
# libraries do not slow every process's start (engine_rbd.c).
RBD ?= auto
ifneq ($(RBD),0)
RBD_LIBS := $(shell pkg-config --libs librbd librados 2>/dev/null || \
	(printf '\043include <rbd/librbd.h>\nint main(void){int a,b,c;rbd_version(&a,&b,&c);return 0;}\n' | \
	 $(CC) -x c - -o /dev/null -lrbd -lrados >/dev/null 2>&1 && echo -lrbd -lrados))
ifeq ($(RBD_LIBS),)
ifeq ($(RBD),1)
$(error RBD=1 but librbd and librados are not found (install librbd-dev and librados-dev))
endif
else
BASE_CFLAGS += -DIOTRIAL_RBD $(shell pkg-config --cflags librbd librados 2>/dev/null)
LIBS += -ldl
endif
endif

VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
BASE_CFLAGS += -DIOTRIAL_VERSION='"$(VERSION)"' -I$(BUILD)/gen
# the git revision, when building from a checkout; rewritten only when it
# changes, so that a new commit recompiles one file
GIT_REV := $(shell git describe --always --dirty 2>/dev/null)

LIB_SRC := $(wildcard src/*/*.c src/*/*/*.c)
CLI_SRC := $(wildcard cli/*.c)
CLI_OBJ := $(patsubst cli/%.c,$(BUILD)/cli/%.o,$(CLI_SRC))
LIB_OBJ := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(LIB_SRC))
# tests/unit/test_*.c as well: a test not yet in its module's folder still
# builds and runs (tests/e2e/build_test_layout.sh says where it belongs)
UNIT_SRC := $(wildcard tests/unit/test_*.c tests/unit/*/test_*.c tests/unit/*/*/test_*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))

all: $(BUILD)/iotrial

# VERSION is a prerequisite of every object: IOTRIAL_VERSION is compiled in.
$(LIB_OBJ) $(CLI_OBJ): VERSION
$(BUILD)/obj/lib/version.o: $(BUILD)/gen/gitrev.h
$(BUILD)/gen/gitrev.h: FORCE
	@mkdir -p $(dir $@)
	@echo '#define IOTRIAL_GIT_REV "$(GIT_REV)"' >$@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
FORCE:

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/cli/%.o: cli/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/libiotrial.a: $(LIB_OBJ)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/iotrial: $(CLI_OBJ) $(BUILD)/libiotrial.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

# compiled and linked apart: a library change relinks every test program but
# recompiles none (77 compiles took ~100 s of a busy machine's make check-fast)
$(BUILD)/tests/%.o: tests/unit/%.c tests/unit/check.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) -Itests/unit -c -o $@ $<

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(BUILD)/libiotrial.a
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libiotrial.a $(LIBS)

units: $(UNIT_BIN)

# fio's reference outputs are made here by running fio (tests/fioref.sh), once
# per fio version, shared by the plain and the sanitizer suites.
FIOREF := $(abspath build/fioref)

CHECK_ENV = IOTRIAL=$(abspath $(BUILD)/iotrial) BUILD=$(abspath $(BUILD)) SHARED=$(abspath ../shared) FIOREF=$(FIOREF)

check: $(BUILD)/iotrial $(UNIT_BIN)
	@sh tests/fioref.sh $(FIOREF)
	@$(CHECK_ENV) sh tests/run.sh $(BUILD)/tests tests/e2e $(T)

# For editing, not the gate: every unit test and the e2e scripts that carry a
# "# check-fast" line (parsing, usage errors, documents read back: no real I/O
# run beyond a few ms), in under 2 minutes on a busy 2-core machine.  No fio
# reference outputs are made: no check-fast script uses them.
check-fast: $(BUILD)/iotrial $(UNIT_BIN)
	@$(CHECK_ENV) CHECK_FAST=1 sh tests/run.sh $(BUILD)/tests tests/e2e $(T)

# The same suite with load beside it (tests/load.sh: two CPU hogs and an
# O_DIRECT writer on a scratch file, started and stopped there): no test may
# depend on an idle machine.
check-loaded: $(BUILD)/iotrial $(UNIT_BIN)
	@sh tests/fioref.sh $(FIOREF)
	@$(CHECK_ENV) sh tests/load.sh sh tests/run.sh $(BUILD)/tests tests/e2e $(T)

# The folders' ranking, their rules and "no circles" (docs/design.md, the floors);
# make check runs the same script as the test tests/e2e/build_layers.sh.
check-layers: $(BUILD)/iotrial
	@sh scripts/check-layers.sh $(BUILD)

# Fuzzing (tests/fuzz, docs/fuzzing.md): libFuzzer harnesses built with clang
# and ASan+UBSan over their own copy of the library objects.
#   make fuzz             build, seed a corpus from tests/data, fuzz each harness
#                         FUZZ_TIME seconds (default 60)
#   make fuzz-smoke       the same for 15 s each (CI); skips when clang or
#                         libFuzzer is missing
FUZZ_CC ?= clang
FUZZ_BUILD := build/fuzz
FUZZ_NAMES := num jobfile cmdline resultread compare qmp
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -pthread -Isrc -MMD -MP -g -O1 -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-DIOTRIAL_VERSION='"$(VERSION)"' -I$(BUILD)/gen
FUZZ_LIB_OBJ := $(patsubst src/%.c,$(FUZZ_BUILD)/obj/%.o,$(LIB_SRC))
FUZZ_BIN := $(addprefix $(FUZZ_BUILD)/fuzz_,$(FUZZ_NAMES))

$(FUZZ_BUILD)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZCC  $<")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIB_OBJ)
	@$(if $(Q),echo "  FUZZLD  $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJ) $(LIBS)

$(FUZZ_BUILD)/obj/lib/version.o: $(BUILD)/gen/gitrev.h

.SECONDARY: $(FUZZ_LIB_OBJ) $(UNIT_BIN:=.o)	# pattern-rule intermediates: keep them between builds

fuzz-build:
	@if sh tests/fuzz/run.sh probe "$(FUZZ_CC)" >/dev/null; then $(MAKE) -s --no-print-directory $(FUZZ_BIN); fi

fuzz: fuzz-build
	@sh tests/fuzz/run.sh run "$(FUZZ_CC)" $(FUZZ_BUILD) $${FUZZ_TIME:-60} $(FUZZ_NAMES)

fuzz-smoke: fuzz-build
	@sh tests/fuzz/run.sh run "$(FUZZ_CC)" $(FUZZ_BUILD) 15 $(FUZZ_NAMES)

# The man page names the documentation directory: installed beside it, with
# the page's default path rewritten to this PREFIX's.
DOCDIR = $(PREFIX)/share/doc/iotrial

install: $(BUILD)/iotrial
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(DOCDIR)
	install -m 755 $(BUILD)/iotrial $(DESTDIR)$(PREFIX)/bin/iotrial
	sed 's|/usr/local/share/doc/iotrial|$(DOCDIR)|g' docs/iotrial.1 >$(DESTDIR)$(PREFIX)/share/man/man1/iotrial.1
	chmod 644 $(DESTDIR)$(PREFIX)/share/man/man1/iotrial.1
	install -m 644 README.md docs/*.md $(DESTDIR)$(DOCDIR)

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/iotrial $(DESTDIR)$(PREFIX)/share/man/man1/iotrial.1
	rm -rf $(DESTDIR)$(DOCDIR)

clean:
	rm -rf build

.PHONY: all units check check-fast check-loaded check-layers install uninstall clean FORCE fuzz fuzz-build fuzz-smoke
# the tests' .d files too: editing fake_clock.h or engine_harness.h rebuilds them
-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(FUZZ_LIB_OBJ:.o=.d) $(UNIT_BIN:=.d) $(FUZZ_BIN:=.d)
