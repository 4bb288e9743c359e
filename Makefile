# iotrial: plain Makefile.
#   make                  build build/iotrial
#   make check            build and run every test (unit + end-to-end)
#   make SANITIZE=1 check the same under ASan + UBSan (objects in build/san)
#   make install PREFIX=/usr/local
#   make V=1              show full command lines
# Layout: src/ is the library (libiotrial.a), cli/ the thin command line.
# Tests: tests/unit/test_*.c are programs (picked up without editing a list),
# tests/e2e/*.sh are scripts; tests/run.sh runs them all and prints the tally.

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
LIBS := -luring -laio -ljansson -lblkid -lpthread -lm
LIBS += -lrt  # posixaio: aio_* live in librt before glibc 2.34
LIBS += -lnettle -lz -lxxhash  # verify: md5/sha (Nettle), crc32 (zlib), xxhash

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

VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
BASE_CFLAGS += -DIOTRIAL_VERSION='"$(VERSION)"'

LIB_SRC := $(wildcard src/*.c)
CLI_SRC := $(wildcard cli/*.c)
CLI_OBJ := $(patsubst cli/%.c,$(BUILD)/cli/%.o,$(CLI_SRC))
LIB_OBJ := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(LIB_SRC))
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))

all: $(BUILD)/iotrial

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

$(BUILD)/tests/%: tests/unit/%.c tests/unit/check.h $(BUILD)/libiotrial.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) $(LDFLAGS) -Itests/unit -o $@ $< $(BUILD)/libiotrial.a $(LIBS)

units: $(UNIT_BIN)

check: $(BUILD)/iotrial $(UNIT_BIN)
	@IOTRIAL=$(abspath $(BUILD)/iotrial) BUILD=$(abspath $(BUILD)) SHARED=$(abspath ../shared) \
		sh tests/run.sh $(BUILD)/tests tests/e2e $(T)

install: $(BUILD)/iotrial
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BUILD)/iotrial $(DESTDIR)$(PREFIX)/bin/iotrial

clean:
	rm -rf build

.PHONY: all units check install clean
-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)
