# SPDX-License-Identifier: GPL-2.0-only
#
# vseg: out-of-tree DRM/TTM driver. "make help" lists the targets.
#
# The module itself is described by the top-level Kbuild file (kbuild reads
# it, not this Makefile); this Makefile drives kbuild, the userspace parts
# and the QEMU test pipeline in tools/.

SHELL := /bin/bash
REPO := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
TOOLS := $(REPO)/tools

# Supported kernels: the newest installed 6.12 and the newest 7.3 in the
# cache (tools/kernels.sh, tools/trixie-kernel.sh).
KERNELS ?= $(shell $(TOOLS)/kernels.sh)
# The kernel "make run" boots: newest 6.12.
KVER ?= $(shell $(TOOLS)/kernels.sh --default)
# Headers "make all/modules" build against: the running kernel's, or KVER's
# when the running kernel has none (these machines run a kernel of their own).
KDIR ?= $(or $(wildcard /lib/modules/$(shell uname -r)/build),/lib/modules/$(KVER)/build)

TESTS ?=
VSEG_ARGS ?=
RUN_EXTRA ?=
VM_TIMEOUT ?= 1800
SUBTEST_TIMEOUT ?= 120
RUN_TIMEOUT ?= 300
QEMU_ARGS ?=
# The guest's PCI device for vseg's PCI mode (VSEG_ARGS=pci=1af4:1110):
# ivshmem-plain, whose BAR 2 is a 32 MiB memory backend.
PCI_QEMU_ARGS ?= -object memory-backend-ram,id=ivmem,size=32M -device ivshmem-plain,memdev=ivmem
# 1: make run also shows vseg on QEMU's bochs-display and saves its screen
# (build/run/KVER/screen-console.png and screen-pattern.png)
RUN_SCREEN ?= 1
RUN_QEMU_ARGS = $(QEMU_ARGS) $(if $(findstring pci=1af4:1110,$(VSEG_ARGS)),$(PCI_QEMU_ARGS)) \
	$(if $(filter 1,$(RUN_SCREEN)),-device bochs-display)
# 1: make check also runs everything on the debug kernel (tools/debug-kernel/)
DEBUG_TIER ?= 1
DEBUG_VM_TIMEOUT ?= 3600
DEBUG_SUBTEST_TIMEOUT ?= $(shell echo $$((3 * $(SUBTEST_TIMEOUT))))
# 1: the debug kernel is built and tested alongside the others (two cores)
DEBUG_PARALLEL ?= 1
# The debug kernel's VSEG_TEST_SCALE (percent): its heavy stress subtests' work
DEBUG_TEST_SCALE ?= 25

# make check-upstream-igt: upstream IGT's source tree
# (Documentation/gpu/vseg-testing.rst, "Against upstream IGT")
UPSTREAM_IGT_SRC ?=
UPSTREAM_IGT_BUILD ?=
UPSTREAM_VM_TIMEOUT ?= 3600

# make soak: the concurrency and fuzz tests for SOAK_SECONDS per subtest
SOAK_SECONDS ?= 600
SOAK_KERNEL ?= debug
SOAK_TESTS ?= vseg_concurrency vseg_fuzz

# make install: the UAPI header, vseg.pc, vseg-info and a modprobe.d example
# (README.md, "Installing"); DESTDIR and PREFIX as usual.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
INCLUDEDIR ?= $(PREFIX)/include
LIBDIR ?= $(PREFIX)/lib
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
SYSCONFDIR ?= /etc
DESTDIR ?=
INSTALL ?= install
# The package version (dkms.conf), the driver's major.minor.
VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"$$/\1/p' $(REPO)/dkms.conf)
DRIVER_VERSION := $(shell sed -n 's/^\#define DRIVER_MAJOR[[:space:]]*//p' \
	$(REPO)/drivers/gpu/drm/vseg/vseg_drv.h).$(shell sed -n \
	's/^\#define DRIVER_MINOR[[:space:]]*//p' $(REPO)/drivers/gpu/drm/vseg/vseg_drv.h)
# make dkms-source: where DKMS looks for the sources
DKMS_SRC ?= /usr/src/vseg-$(VERSION)

# V=1: compiler command lines (userspace) and kbuild's (make check)
V ?= 0
SUBMAKE_FLAGS := $(if $(filter 1,$(V)),,-s) V=$(V)

export TESTS VM_TIMEOUT SUBTEST_TIMEOUT QEMU_ARGS DEBUG_TIER DEBUG_VM_TIMEOUT \
	DEBUG_SUBTEST_TIMEOUT DEBUG_PARALLEL DEBUG_TEST_SCALE

.PHONY: all modules modules_install userspace clean build-kernels check run \
	sparse checkpatch help debug-kernel check-debug soak bench check-upstream-igt \
	install uninstall dkms-source version-check

all: modules userspace

modules:
	$(MAKE) -C $(KDIR) M=$(REPO) W=1 modules

modules_install:
	$(MAKE) -C $(KDIR) M=$(REPO) modules_install

# Our command-line variables (TESTS, ...) must not reach igt-tests' make.
userspace: MAKEOVERRIDES :=
userspace:
	@if [ -f $(REPO)/igt-tests/Makefile ]; then \
		$(MAKE) $(SUBMAKE_FLAGS) -C $(REPO)/igt-tests; \
	else \
		echo "userspace: no igt-tests/Makefile yet: skipping the IGT tests"; \
	fi
	@if [ -f $(TOOLS)/Makefile ]; then $(MAKE) $(SUBMAKE_FLAGS) -C $(TOOLS); fi

# dkms.conf's version must be the driver's major.minor.
version-check:
	@if [ "$(VERSION)" != "$(DRIVER_VERSION)" ]; then \
		echo "dkms.conf says version $(VERSION), vseg_drv.h $(DRIVER_VERSION)" >&2; \
		exit 1; \
	fi

install: MAKEOVERRIDES :=
install: version-check
	@$(MAKE) $(SUBMAKE_FLAGS) -C $(TOOLS)
	$(INSTALL) -d $(DESTDIR)$(INCLUDEDIR)/libdrm $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(BINDIR) $(DESTDIR)$(SYSCONFDIR)/modprobe.d
	$(INSTALL) -m 644 $(REPO)/include/uapi/drm/vseg_drm.h $(DESTDIR)$(INCLUDEDIR)/libdrm/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(VERSION)|' $(REPO)/packaging/vseg.pc.in \
		>$(DESTDIR)$(PKGCONFIGDIR)/vseg.pc
	$(INSTALL) -m 755 $(TOOLS)/vseg-info $(DESTDIR)$(BINDIR)/
	@# an example, every line commented: never over a file already there
	@f=$(DESTDIR)$(SYSCONFDIR)/modprobe.d/vseg.conf; \
	if [ -e "$$f" ]; then echo "install: keeping $$f"; \
	else echo "$(INSTALL) -m 644 packaging/modprobe-vseg.conf $$f"; \
		$(INSTALL) -m 644 $(REPO)/packaging/modprobe-vseg.conf "$$f"; fi

uninstall:
	rm -f $(DESTDIR)$(INCLUDEDIR)/libdrm/vseg_drm.h $(DESTDIR)$(PKGCONFIGDIR)/vseg.pc \
		$(DESTDIR)$(BINDIR)/vseg-info
	@f=$(DESTDIR)$(SYSCONFDIR)/modprobe.d/vseg.conf; \
	if cmp -s "$$f" $(REPO)/packaging/modprobe-vseg.conf; then rm -f "$$f"; \
	elif [ -e "$$f" ]; then echo "uninstall: $$f was edited: kept"; fi

# The module's sources and dkms.conf in $(DESTDIR)$(DKMS_SRC), for
# "dkms install vseg/$(VERSION)" (README.md, "Installing with DKMS").
dkms-source: version-check
	rm -rf $(DESTDIR)$(DKMS_SRC)
	$(INSTALL) -d $(DESTDIR)$(DKMS_SRC)
	cd $(REPO) && tar -c --exclude='*.o' --exclude='*.ko' --exclude='*.mod' \
		--exclude='*.mod.c' --exclude='.*.cmd' --exclude='*.a' --exclude='.*.d' \
		--exclude=modules.order --exclude=Module.symvers \
		dkms.conf Kbuild drivers include | tar -x -C $(DESTDIR)$(DKMS_SRC)

clean:
	@if [ -d $(KDIR) ]; then $(MAKE) -C $(KDIR) M=$(REPO) clean; fi
	@if [ -f $(REPO)/igt-tests/Makefile ]; then $(MAKE) -C $(REPO)/igt-tests clean; fi
	@if [ -f $(REPO)/benchmarks/Makefile ]; then $(MAKE) -C $(REPO)/benchmarks clean; fi
	@if [ -f $(TOOLS)/Makefile ]; then $(MAKE) -C $(TOOLS) clean; fi
	rm -rf $(REPO)/build

# One copy of the sources per kernel in build/KVER/, W=1, fail on warnings.
build-kernels:
	@$(TOOLS)/build-module.sh $(KERNELS)

# sparse over every file on every kernel (C=2), fail on any report.
sparse:
	@$(TOOLS)/build-module.sh -s $(KERNELS)

checkpatch:
	@$(TOOLS)/checkpatch.sh

# Everything CI runs; the last line is "N passed, N failed, N skipped".
check: version-check
	@V=$(V) KERNELS="$(KERNELS)" MAKE="$(MAKE)" $(TOOLS)/check.sh

# The debug kernel (KASAN, lockdep, kmemleak, KUnit), built once and cached
# outside the tree; prints its directory.
debug-kernel:
	@DEBUG_TIER=1 $(TOOLS)/install-deps.sh
	@$(TOOLS)/debug-kernel/build.sh

# make check on the debug kernel only (IGT + KUnit + kmemleak).
check-debug:
	@KERNELS=debug DEBUG_TIER=1 MAKE="$(MAKE)" $(TOOLS)/check.sh

# The soak: SOAK_TESTS on SOAK_KERNEL (debug, or a KVER), each random
# phase stretched to SOAK_SECONDS (VSEG_SOAK_SECONDS, VSEG_FUZZ_SOAK in the guest).
soak:
	@t=$$(( $(SOAK_SECONDS) * 2 + 300 )); \
	KERNELS="$(SOAK_KERNEL)" TESTS="$(SOAK_TESTS)" MAKE="$(MAKE)" \
	DEBUG_TIER=$(if $(filter debug,$(SOAK_KERNEL)),1,0) \
	GUEST_ENV="VSEG_SOAK_SECONDS=$(SOAK_SECONDS) VSEG_FUZZ_SOAK=$(SOAK_SECONDS)" \
	SUBTEST_TIMEOUT=$$t DEBUG_SUBTEST_TIMEOUT=$$t DEBUG_TEST_SCALE=100 \
	VM_TIMEOUT=$$(( t * 12 + 900 )) DEBUG_VM_TIMEOUT=$$(( t * 12 + 2400 )) \
	$(TOOLS)/check.sh

# The IGT tests built against upstream IGT's library (not igt-tests/lib)
# and run by upstream's igt_runner in the guest; not part of check.
check-upstream-igt:
	@KERNELS="$(KERNELS)" UPSTREAM_IGT_SRC="$(UPSTREAM_IGT_SRC)" \
	UPSTREAM_IGT_BUILD="$(UPSTREAM_IGT_BUILD)" VM_TIMEOUT=$(UPSTREAM_VM_TIMEOUT) \
	$(TOOLS)/upstream-igt.sh

# Benchmarks (benchmarks/) on 6.12 against vgem and bochs in one guest:
# a table, build/bench/results.json and build/bench/scaling.png.
bench:
	@MAKE="$(MAKE)" QEMU_ARGS="$(QEMU_ARGS)" $(TOOLS)/bench.sh

# Boot KVER, load vseg with VSEG_ARGS, show its segment table, run
# tools/vseg-example (if built) and RUN_EXTRA (';'-separated commands), unload.
run:
	@$(TOOLS)/install-deps.sh
	@$(TOOLS)/build-module.sh $(KVER)
	@$(MAKE) --no-print-directory userspace
	@$(TOOLS)/vm-run.sh -k $(KVER) -t $(RUN_TIMEOUT) -o $(REPO)/build/run/$(KVER) \
		--qemu-args "$(RUN_QEMU_ARGS)" $(if $(filter 1,$(RUN_SCREEN)),--screendump) \
		-e VSEG_ARGS="$(VSEG_ARGS)" -e RUN_EXTRA="$(RUN_EXTRA)" -e RUN_SCREEN="$(RUN_SCREEN)" -- \
		$(TOOLS)/vseg-run.sh $(REPO)/build/$(KVER)/drivers/gpu/drm/vseg/vseg.ko

help:
	@echo "vseg targets:"
	@echo "  all (default)    vseg.ko against KDIR (W=1) + userspace (igt-tests, tools)"
	@echo "  modules          vseg.ko against KDIR=$(KDIR)"
	@echo "  modules_install  install it (kbuild's modules_install)"
	@echo "  userspace        make -C igt-tests (and tools/ if it has a Makefile)"
	@echo "  build-kernels    vseg.ko for each of KERNELS in build/KVER/, W=1, no warnings allowed"
	@echo "  check            deps + builds + IGT tests in a QEMU guest per kernel (what CI runs),"
	@echo "                   then IGT + KUnit + kmemleak on the debug kernel (DEBUG_TIER=0: skip)"
	@echo "  check-debug      only the debug kernel's part of make check"
	@echo "  debug-kernel     build the debug kernel (7.3, cached outside the tree; ~10-20 min once)"
	@echo "  soak             SOAK_TESTS on SOAK_KERNEL, SOAK_SECONDS per subtest (not in check)"
	@echo "  check-upstream-igt  the IGT tests built against upstream IGT (UPSTREAM_IGT_SRC) and"
	@echo "                   run by its igt_runner in the guest, per kernel (not part of check)"
	@echo "  bench            benchmarks/ on 6.12 vs vgem and bochs: table, build/bench/results.json,"
	@echo "                   build/bench/scaling.png (~6 min; not part of check)"
	@echo "  run              boot KVER, insmod vseg VSEG_ARGS, print its segments, RUN_EXTRA, rmmod;"
	@echo "                   then vseg on bochs-display, its screen saved as PNGs (RUN_SCREEN=0: not)"
	@echo "  sparse           C=2 sparse build on each of KERNELS, fail on any report"
	@echo "  checkpatch       checkpatch.pl --strict over the driver and UAPI header"
	@echo "  clean            remove build products (build/, kbuild objects, igt-tests)"
	@echo "  install          UAPI header (INCLUDEDIR/libdrm), vseg.pc, vseg-info, modprobe.d example"
	@echo "  uninstall        remove what install put there (an edited modprobe.d file stays)"
	@echo "  dkms-source      module sources + dkms.conf into DKMS_SRC=$(DKMS_SRC) for dkms install"
	@echo "variables:"
	@echo "  KERNELS=\"$(KERNELS)\""
	@echo "  KVER=$(KVER)  (make run)"
	@echo "  TESTS=\"...\"       subset of IGT binaries (names or paths) for make check"
	@echo "  VSEG_ARGS=\"...\"   module parameters for make run (pci=1af4:1110: on an ivshmem-plain device)"
	@echo "  RUN_EXTRA=\"...\"   extra commands for make run (';'-separated)"
	@echo "  VM_TIMEOUT=$(VM_TIMEOUT) SUBTEST_TIMEOUT=$(SUBTEST_TIMEOUT) RUN_TIMEOUT=$(RUN_TIMEOUT) QEMU_ARGS=\"$(QEMU_ARGS)\""
	@echo "  DEBUG_TIER=$(DEBUG_TIER)  (0: make check skips the debug kernel)"
	@echo "  DEBUG_PARALLEL=$(DEBUG_PARALLEL)  (1: the debug kernel runs alongside the others, output at the end)"
	@echo "  DEBUG_VM_TIMEOUT=$(DEBUG_VM_TIMEOUT) DEBUG_SUBTEST_TIMEOUT=$(DEBUG_SUBTEST_TIMEOUT)  (the debug kernel is slower)"
	@echo "  DEBUG_TEST_SCALE=$(DEBUG_TEST_SCALE)  (percent of the heavy stress subtests' work on the debug kernel)"
	@echo "  SOAK_SECONDS=$(SOAK_SECONDS) SOAK_KERNEL=$(SOAK_KERNEL) SOAK_TESTS=\"$(SOAK_TESTS)\"  (make soak)"
	@echo "  V=1              print compiler command lines (userspace, and kbuild's in make check)"
	@echo "  DESTDIR=\"$(DESTDIR)\" PREFIX=$(PREFIX)  (make install; also BINDIR INCLUDEDIR LIBDIR PKGCONFIGDIR SYSCONFDIR)"
	@echo "  VSEG_CACHE       debug kernels, the 7.3 kernel and build root, sources, outside the tree"
	@echo "                   (default /var/cache/vseg)"
	@echo "  UPSTREAM_IGT_SRC=\"$(UPSTREAM_IGT_SRC)\" UPSTREAM_IGT_BUILD=\"$(UPSTREAM_IGT_BUILD)\" UPSTREAM_VM_TIMEOUT=$(UPSTREAM_VM_TIMEOUT)  (make check-upstream-igt)"
	@echo "logs: build/KVER/build.log, build/check/KVER/{console.log,dmesg.txt,igt-results/}"
	@echo "      debug kernel: build/check/debug/ (+ igt-results/kunit/, igt-results/kmemleak.txt)"
