# SPDX-License-Identifier: MIT
#
# What the userspace Makefiles (igt-tests/, benchmarks/, tools/) build
# with: the compiler, libdrm, the UAPI headers and one set of warnings.
# Included after SRCDIR is set; VSEG_ROOT is the top of the tree.

VSEG_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)

CC ?= gcc
AR ?= ar
PKG_CONFIG ?= pkg-config

DRM_CFLAGS := $(shell $(PKG_CONFIG) --cflags libdrm)
DRM_LIBS := $(shell $(PKG_CONFIG) --libs libdrm)

CFLAGS ?= -O2 -g
# -Wno-clobbered as upstream IGT: the subtest macros are sigsetjmp() based
# and gcc cannot tell that locals of a finished block are not used again.
# The extra warnings are some of those upstream IGT builds with, so that the
# tests also build cleanly in upstream's tree.
override CFLAGS += -Wall -Wextra -Werror -O2 -g -std=gnu11 -D_GNU_SOURCE \
	-Wno-clobbered -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
	-Wdeclaration-after-statement -Wformat=2 -Wlogical-op \
	-Wold-style-definition -Wredundant-decls -Wnested-externs
override CPPFLAGS += -I$(VSEG_ROOT)/include/uapi/drm $(DRM_CFLAGS)
# Header dependencies, for the Makefiles that -include the .d files.
DEPFLAGS := -MMD -MP

# Quiet recipes unless V=1: "  CC      name" instead of the command line.
# A recipe says "@$(msg) CC $(@F)" and runs its command as "$(Q)...".
ifeq ($(V),1)
Q :=
msg := @true
else
Q := @
msg := @printf '  %-7s %s\n'
endif
