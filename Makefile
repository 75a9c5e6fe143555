# Kernel markers for Linux 6.1: build, boot, demo and test.
#   make demo    everything, then the guided demo
#   make check   everything, then every test; ends "N passed, N failed"
# Both start with 'make deps', so they work on a fresh Debian 12 machine.
# Big artifacts (build root, kernel tree, guest image, ccache) are cached
# outside the checkout under keys of their inputs (see lib/cache.sh);
# build/ holds links to the current ones.

SHELL := /bin/bash
.DEFAULT_GOAL := help

HOST_PACKAGES := qemu-system-x86 debootstrap linux-source-6.1 e2fsprogs ccache \
	xz-utils gcc gcc-multilib make libelf-dev python3 binutils shellcheck cppcheck git patch util-linux gnuplot-nox clang-14 libclang-rt-14-dev

.PHONY: help deps root kernel debs vendor zfs image demo check check-series bench shell clean distclean \
	kernel-debug vendor-debug image-debug check-debug states-background

help:
	@echo 'make demo     build what the demo boots, then the guided demo: the vendor driver, its markers, SystemTap'
	@echo 'make check    build everything, run every test (host and guest)'
	@echo 'make check-series  only that every patch of the series builds on its own (the per-patch states; part of make check)'
	@echo 'make bench    what a marker costs against tracepoints and kprobes, per tracer, in instructions (QEMU -icount) and TCG time: bench/results/ (bench/run --help)'
	@echo 'make check-debug  the same marker code on a debug kernel (lockdep, KASAN, kmemleak, failslab): stress, faults, hostile input; prints a summary'
	@echo 'make shell    an interactive root shell in the guest'
	@echo 'make deps | root | kernel | vendor | zfs | image    the individual set-up steps (zfs: OpenZFS on markers, zfs/README.md)'
	@echo 'make debs     our kernel as Debian packages (linux-image, linux-headers with Module.markers) in build/debs'
	@echo 'make clean    remove build/ (the caches in $${KM_CACHE:-/var/cache/kernel-markers} stay)'
	@echo 'How long each takes, first run and warm: docs/building.md#times'

# Host packages: installed only when one is missing.
deps:
	@missing=$$(for p in $(HOST_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "==> installing host packages:" $$missing; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "deps: host packages present"; fi

build:
	@mkdir -p build

root: deps | build
	@ln -sfn "$$(guest-image/mkroot)" build/root

# build/kernel is the kernel as built (a cache entry that never changes);
# build/linux, what SystemTap and the guest see, is its view with the
# markers of the modules built outside it merged in (kernel/view).
kernel: root
	@ln -sfn "$$(kernel/build)" build/kernel
	@kernel/view >/dev/null

# linux-image and linux-headers packages of our kernel (bindeb-pkg); the
# headers carry the kernel's Module.markers.
debs: kernel
	@ln -sfn "$$(kernel/debs)" build/debs

# The Acme vendor drop (vendor-module/drop), built against our kernel; its
# markers go into the view's Module.markers from the stripped binary, as a
# customer would do it, so stap -r build/linux knows them.
vendor: kernel
	@$(MAKE) -s -C vendor-module
	@kernel/view >/dev/null

# OpenZFS's spl.ko and zfs.ko with the markers backend of zfs/patches,
# built from Debian's zfs-dkms source against our kernel (zfs/build); their
# markers go into the view's Module.markers too.
zfs: kernel
	@ln -sfn "$$(zfs/build)" build/zfs
	@kernel/view >/dev/null

image: vendor zfs
	@ln -sfn "$$(guest-image/mkimage)" build/guest.img

demo: image
	@guest-image/demo

check: states-background image
	@tests/modules/build
	@tests/run

# The per-patch states (kernel/build-states) need only the root and the
# kernel source, so make check starts them here, in the background at the
# lowest priority: they take what the builds of the kernel, OpenZFS
# (whose configure runs on one core) and the image leave of the cores,
# instead of all starting beside the guests. tests/kernel/20 reports them
# and waits for them first (kernel/build-states builds one at a time).
states-background: root
	@echo "==> the per-patch states: built in the background unless cached (log: build/states.log)"
	@nice -n 19 kernel/build-states >/dev/null 2>build/states.log </dev/null &

# The series' bisect states (kernel/build-states) and the CONFIG_MARKERS=n
# build, alone: the kernel test that builds them.
check-series: kernel
	@tests/run kernel/20-series-builds

# The debug kernel (kernel/config/debug: lockdep, KASAN, kmemleak, failslab),
# the Acme driver's GPL build for it (lockdep makes a mutex GPL-only), its
# image, and the campaign run on it (tests/check-debug).
kernel-debug: root
	@ln -sfn "$$(kernel/build debug)" build/kernel-debug
	@kernel/view debug >/dev/null

vendor-debug: kernel-debug vendor
	@$(MAKE) -s -C vendor-module gpl KDIR="$$(readlink -f build/kernel-debug)"
	@kernel/view debug >/dev/null

image-debug: vendor-debug
	@ln -sfn "$$(guest-image/mkimage debug)" build/guest-debug.img

check-debug: image-debug
	@KM_FLAVOUR=debug tests/modules/build
	@tests/check-debug

# Ratios measured side by side in one guest boot, and the pipeline's own
# times; the table and chart go to bench/results (see bench/run).
bench: image
	@bench/run

# The SystemTap scripts are at /mnt/host in the guest; the tapsets and the
# vendor drop are installed there.
shell: image
	@guest-image/vm shell --share stap-scripts

clean:
	rm -rf build
	$(MAKE) -s -C vendor-module clean

distclean: clean
	rm -rf "$${KM_CACHE:-/var/cache/kernel-markers}"
