# SPDX-License-Identifier: MIT
# stylusd — every target installs the Debian packages it needs first.
SWIFT      ?= swift
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
# Where installs before the parser child became stylusd put stylusd-parse-config:
# install and uninstall remove it from there.
LIBEXECDIR ?= $(PREFIX)/libexec/stylusd
USERUNITDIR ?= $(PREFIX)/lib/systemd/user
# udev reads /usr/lib/udev/rules.d and /etc/udev/rules.d, not /usr/local.
UDEVRULESDIR ?= $(if $(filter /usr,$(PREFIX)),/usr/lib/udev/rules.d,/etc/udev/rules.d)
COMPLETIONSDIR ?= $(PREFIX)/share/bash-completion/completions
MODULESLOADDIR ?= $(if $(filter /usr,$(PREFIX)),/usr/lib/modules-load.d,/etc/modules-load.d)
# libinput reads every *.quirks in its data folder, but from /etc/libinput only
# local-overrides.quirks (the user's own file, not ours to overwrite).
QUIRKSDIR ?= /usr/share/libinput
ZSHCOMPLETIONSDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPLETIONSDIR ?= $(PREFIX)/share/fish/vendor_completions.d
MANDIR     ?= $(PREFIX)/share/man
DOCDIR     ?= $(PREFIX)/share/doc/stylusd
STRIP      ?= strip
DEB_BUILD  := pkg-config libinput-dev libevdev-dev libwacom-dev
COMPLETION_SHELLS := bash zsh fish
# gjs runs the GNOME extension's canvas-spec tests (gnome-extension/tests/run.sh).
DEB_TEST   := $(DEB_BUILD) python3 gjs evemu-tools groff-base man-db tmux $(COMPLETION_SHELLS)
RECORDING  := Tests/Fixtures/recordings/Wacom_Cintiq_22HDT_Pen.events
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: need-swift examples gnome-extension startup-order test-firstrun overlay test-overlay test-overlay-unit install-overlay bench-overlay bench-flood bench-filter all deps deps-test deps-ci build release release-bench run demo test check test-swift test-crosscheck test-extension test-contract test-fuzz test-sanitize test-asan test-tsan test-docs fuzz hil bench bench-latency install install-build install-udev uninstall clean

all: build

# Installs only what dpkg reports missing, so a ready machine skips apt.
define install_missing
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
endef

# Before apt: without the toolchain nothing can be built, so say what to install.
need-swift:
	@command -v $(SWIFT) >/dev/null 2>&1 || { \
		echo "stylusd needs the Swift toolchain, 6.1 or later, which Debian does not package:"; \
		echo "  download the Debian 12 toolchain from https://www.swift.org/install/linux/, unpack it,"; \
		echo "  and put its usr/bin on PATH (export PATH=/path/to/swift/usr/bin:\$$PATH); then run make again."; \
		exit 1; } >&2

deps: need-swift
	$(call install_missing,$(DEB_BUILD))

deps-test: need-swift
	$(call install_missing,$(DEB_TEST))

build: deps
	$(SWIFT) build

# The programs as users get them (the static Swift runtime, the link of
# install-build): one release tree, BIN, that run, demo, every test of the
# programs, HIL, install and the .deb all use.
BIN        := .build-static/release
release: install-build

ARGS       ?=

# The daemon in the foreground on seat0; without a pen it says why and runs
# button-only. Without a login session its socket goes under .build/run/.
# Ctrl-C stops it. Options: make run ARGS='--device /dev/input/event5'.
run: release
	@# The canvas overlay beside the daemon where there is a display to show it on.
	$(if $(DISPLAY)$(WAYLAND_DISPLAY),$(MAKE) --no-print-directory overlay)
	tools/run.sh $(ARGS)

# A live daemon driven by a real recording (a Cintiq 22HDT session whose
# side-button double presses open and minimize the canvas), with its own
# socket and state under .build/demo/; its events shown as stylusctl watch
# prints them. Ctrl-C stops it. `stylusd replay FILE` is the offline run.
demo: release
	@# The canvas the recording opens and minimizes, where there is a display to show it on (as make run).
	$(if $(DISPLAY)$(WAYLAND_DISPLAY),$(MAKE) --no-print-directory overlay)
	tools/demo.sh $(ARGS)

# The contributor's loop before every commit (CONTRIBUTING.md): the Swift
# unit and property tests, the canvas spec's vectors in the GNOME extension
# (gjs), the socket contract against the release daemon,
# and a few seconds of the protocol and config fuzzers.
check: deps-test
	$(SWIFT) build --build-tests --no-color-diagnostics
	$(SWIFT) test --skip-build
	gnome-extension/tests/run.sh
	$(MAKE) --no-print-directory release examples
	python3 Tests/contract/socket_contract.py --bin $(BIN)
	Fuzz/run.sh 5 protocol config

# Everything, as CI runs it: the stages below in two chains side by side
# (make -j2), then a table of each stage's wall time, tests run and result
# (tools/ci/stage.py; each stage's whole output is in .build-ci/STAGE.log).
# Chain A starts HIL as soon as the release binaries exist; chain B runs the
# rest; each chain runs one stage at a time, so the two cores carry two
# stages. A stage never fails its chain: a failed one shows in the table
# (and fails make test), the next still runs, and a stage that needs one
# that failed (--needs) says so instead of running.
STAGE := python3 tools/ci/stage.py
test:
	+@$(STAGE) reset
	+@$(STAGE) run deps -- $(MAKE) --no-print-directory deps-ci; $(STAGE) passed deps || { $(STAGE) table; exit 1; }
	+@$(MAKE) --no-print-directory -j2 ci-chain-a ci-chain-b; $(STAGE) table

ci-chain-a: ci-crosscheck
ci-chain-b: ci-tsan
# A stage that needs another chain's stage names it twice: as a make prerequisite, so that
# it starts only once that stage has ended, and in --needs, so that it runs only if it passed.
# Chain A: the release build, then the guest (the longest stage), the fuzzers and what needs
# the release binaries and the canvas; chain B: the canvas, then the sanitizers' builds with
# the overlay suites between them. Each chain's stages take about half of the whole (the
# table's seconds from a fresh clone: CONTRIBUTING.md).
ci-release:
	+@$(STAGE) run release -- $(MAKE) --no-print-directory release examples
ci-hil: ci-release
	+@$(STAGE) run hil --needs release -- $(MAKE) --no-print-directory hil
ci-fuzz: ci-hil
	+@$(STAGE) run fuzz -- $(MAKE) --no-print-directory test-fuzz FUZZ_TEST_SECONDS=$(CI_FUZZ_SECONDS)
ci-contract: ci-fuzz ci-canvas
	+@$(STAGE) run contract --needs release,canvas -- $(MAKE) --no-print-directory test-contract
ci-deb: ci-contract
	+@$(STAGE) run deb --needs release,canvas -- $(MAKE) --no-print-directory test-deb DEB_BUILT=yes
ci-firstrun: ci-deb
	+@$(STAGE) run firstrun --needs release,canvas -- $(MAKE) --no-print-directory test-firstrun
ci-desktops: ci-firstrun
	+@$(STAGE) run desktops --needs release,canvas -- $(MAKE) --no-print-directory test-desktops
ci-overlay-unit: ci-desktops
	+@$(STAGE) run overlay-unit -- $(MAKE) --no-print-directory test-overlay-unit
ci-crosscheck: ci-overlay-unit
	+@$(STAGE) run crosscheck --needs release -- $(MAKE) --no-print-directory test-crosscheck
# Chain B: what needs no release build first, while chain A makes it. The Swift suite runs
# under AddressSanitizer here (the same tests as `make test-swift`, with its checks on top).
ci-extension:
	+@$(STAGE) run extension -- $(MAKE) --no-print-directory test-extension
ci-docs: ci-extension
	+@$(STAGE) run docs -- $(MAKE) --no-print-directory test-docs
ci-canvas: ci-docs
	+@$(STAGE) run canvas -- $(MAKE) --no-print-directory overlay
ci-asan: ci-canvas
	+@$(STAGE) run asan -- $(MAKE) --no-print-directory test-asan
ci-overlay: ci-asan ci-release
	+@$(STAGE) run overlay --needs release,canvas -- $(MAKE) --no-print-directory test-overlay
ci-tsan: ci-overlay
	+@$(STAGE) run tsan -- $(MAKE) --no-print-directory test-tsan
# Each fuzzer's time in CI: the seeds and the fixed findings always run whole; a longer
# search is `make fuzz`.
CI_FUZZ_SECONDS ?= 20
.PHONY: ci-chain-a ci-chain-b ci-overlay-unit ci-desktops ci-release ci-hil ci-deb ci-firstrun ci-crosscheck ci-tsan ci-extension ci-docs ci-canvas ci-contract ci-overlay ci-fuzz ci-asan

# Every Debian package any stage of `make test` needs, in one apt run.
HIL_PACKAGES := $(shell sed -n 's/^PACKAGES="\(.*\)"/\1/p' hil/vm.sh)
deps-ci: need-swift
	$(call install_missing,$(DEB_TEST) $(DEB_OVERLAY) $(DEB_OVERLAY_TEST) libstdc++-12-dev $(HIL_PACKAGES) $(if $(SUDO),,dpkg-dev lintian mmdebstrap))

test-swift: deps-test
	$(SWIFT) build --build-tests --no-color-diagnostics
	$(SWIFT) test --skip-build
	$(MAKE) --no-print-directory test-extension

# The canvas spec's vectors in the GNOME extension's JavaScript, as the Swift tests run them.
test-extension: deps-test
	gnome-extension/tests/run.sh

# The docs name every target of both packages (ARCHITECTURE.md) and link files that exist.
test-docs:
	python3 Tests/docs/architecture_test.py

# A new user's first commands: the CLI's messages, every shell command in
# the README, stylusctl monitor and calibrate in a tmux terminal, make run without a login session, make demo, make install into a folder.
test-firstrun: release
	@# The shells whose completions cli.py drives: installed as root; without root cli.py says which it skips.
	$(if $(SUDO),,$(call install_missing,$(COMPLETION_SHELLS)))
	python3 Tests/firstrun/cli.py --bin $(BIN)
	python3 Tests/firstrun/readme.py --bin $(BIN)
	python3 Tests/firstrun/terminal.py --bin $(BIN)
	python3 Tests/firstrun/first_run.py
	python3 Tests/firstrun/second_hour.py --bin $(BIN)
	Tests/firstrun/moved_checkout.sh

# docs/CLIENTS.md's Swift "ask the user for a drawing" beside the release
# daemon, where the socket contract runs it (no install ships it).
examples: install-build
	@$(call swift_locked,.build-static,$(SWIFT) build -c release --no-color-diagnostics --static-swift-stdlib --scratch-path .build-static $(INSTALL_LINK) --product stylus-example-ask)

# The socket contract against a live daemon on this machine, and the
# double-press actions a daemon performs itself (exec:, preset:). PNG export
# and submit run the canvas's renderer: `make overlay` first (make test does).
test-contract: release examples
	python3 Tests/contract/socket_contract.py --bin $(BIN)
	python3 Tests/actions/actions_test.py --bin $(BIN)

test-crosscheck: release
	python3 Tests/crosscheck/crosscheck_replay.py --stylusd $(BIN)/stylusd Tests/Fixtures/recordings

# libFuzzer with AddressSanitizer over the socket protocol, evemu recordings
# and config.toml, FUZZ_SECONDS each, from corpora seeded by the docs and
# fixtures. Findings go to .build-fuzz/artifacts/ (see Fuzz/run.sh).
FUZZ_SECONDS ?= 300
fuzz: deps-test
	Fuzz/run.sh $(FUZZ_SECONDS)

# What CI runs: each fuzzer for a minute, the three side by side.
test-fuzz: deps-test
	FUZZ_PARALLEL=1 Fuzz/run.sh $(FUZZ_TEST_SECONDS)
FUZZ_TEST_SECONDS ?= 60

# The Swift tests and the socket contract (live daemon and stylusctl) under
# AddressSanitizer (with LeakSanitizer), then under ThreadSanitizer.
test-sanitize: test-asan test-tsan
test-asan: deps-test
	Tests/sanitize/sanitize.sh address
test-tsan: deps-test
	Tests/sanitize/sanitize.sh thread

# Hardware-in-the-loop: virtual pens in a QEMU guest with a stock Debian
# kernel (this machine has no /dev/uinput). Status 77 means no guest could
# start here at all; that is reported as SKIPPED, never as a pass. The guest
# runs hil/tests/run.py (the tests are hil/tests/*_tests.py).
hil: release
	@hil/vm.sh; status=$$?; \
	if [ $$status -eq 77 ]; then echo "hil: SKIPPED (see the reason above)"; exit 0; fi; \
	exit $$status

# Every benchmark on this machine, then the latency one in the guest; the
# report goes to bench-report.txt (figures kept in docs/PERFORMANCE.md).
# The plain release tree beside BIN: stylus-bench, the malloc interposer, and
# the dynamically linked daemon the filter benchmark sets beside the installed one.
release-bench: deps
	$(SWIFT) build -c release --no-color-diagnostics

bench: release release-bench overlay
	@# What make install installs (stripped).
	install -Dm755 -s --strip-program=$(STRIP) .build-static/release/stylusd .build-static/installed/stylusd
	python3 bench/bench.py --bin .build/release --installed .build-static/installed
	$(MAKE) --no-print-directory bench-latency
	$(MAKE) --no-print-directory bench-flood
	$(MAKE) --no-print-directory bench-filter
	$(MAKE) --no-print-directory bench-overlay
	$(MAKE) --no-print-directory bench-desktops

# hil/bench/latency.py in the guest: a double press to a socket client, beside libinput debug-events.
bench-latency: release release-bench
	@HIL_SUITE=latency hil/vm.sh | tee -a bench-report.txt | grep -E '^latency:|SKIPPED'; true

# The non-blocking loop under a flood of devices and reload (docs/SECURITY.md):
# status p99 and the longest pen gap against twice their baseline, in one guest run
# (hil/tests/flood_tests.py, with these two targets asserted).
bench-flood: release release-bench
	@HIL_SUITE=flood hil/vm.sh | tee -a bench-report.txt | grep -E 'flood|SKIPPED'; true

# Filter mode's pen latency, CPU and RSS beside interception-tools and
# input-remapper, in one guest run. The guest runs on the host's root, so the
# two peers are installed here; only root can (the guest has no sudo either).
# The benchmark is hil/bench/filter_bench.py (HIL_BENCH_ARGS: its options).
BENCH_FILTER_PEERS := interception-tools input-remapper
bench-filter: release release-bench
	@missing=$$(for p in $(BENCH_FILTER_PEERS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ] && [ "$$(id -u)" != 0 ]; then \
		echo "bench-filter: SKIPPED: the peers $$missing are not installed and only root can install them (sudo apt-get install $$missing)"; exit 0; \
	fi; \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing || exit 1; \
	fi; \
	HIL_SUITE=filterbench hil/vm.sh | tee -a bench-report.txt | grep -E '^filterbench:|SKIPPED'; true

# Installed binaries carry the Swift runtime inside (--static-swift-stdlib),
# so they run without the toolchain and start with less memory. The link is
# chosen for resident memory (docs/PERFORMANCE.md, section 6): lld, because it
# packs the relative relocations (RELR) that gold would leave as a megabyte the
# loader reads at every start; libstdc++ from its archive (-lstdc++ finds it
# first in .build-static/stdc++), because the shared library's relocated tables
# stay resident in every process that loads it; the executable's own symbols not
# exported (the toolchain's link file asks for it; nothing looks them up); and
# the functions the daemon runs until it idles placed together
# (packaging/stylusd.order, made by `make startup-order`). Both products
# use the same flags, so that one build does not undo another's. The config
# parser child is stylusd itself (`stylusd parse-config-child`): a program of
# its own would carry a Swift runtime of its own, 5+ MiB on disk.
TOOLCHAIN_CLANG := $(dir $(realpath $(shell command -v $(SWIFT))))clang
INSTALL_LINK   := -Xswiftc -use-ld=lld -Xswiftc -L$(CURDIR)/.build-static/stdc++ \
                  -Xlinker --no-export-dynamic -Xlinker -z -Xlinker pack-relative-relocs \
                  -Xlinker --symbol-ordering-file=$(CURDIR)/packaging/stylusd.order -Xlinker --no-warn-symbol-ordering
install-build: deps
	$(call install_missing,libstdc++-12-dev)
	$(call forget_moved_build,.build-static)
	@archive=$$($(TOOLCHAIN_CLANG) -print-file-name=libstdc++.a 2>/dev/null); case "$$archive" in \
		/*) mkdir -p .build-static/stdc++ && ln -sfn "$$archive" .build-static/stdc++/libstdc++.a ;; \
		*) echo "install-build: libstdc++.a not found (libstdc++-12-dev); the binaries load the shared libstdc++ and use about 1 MiB more" ;; \
	esac
	@# SwiftPM does not know the link reads the order file: a newer one (a pull) links again.
	@for p in stylusd stylusctl; do \
		[ .build-static/release/$$p -nt packaging/stylusd.order ] || rm -f .build-static/release/$$p; \
	done
	@$(call swift_locked,.build-static,$(SWIFT) build -c release --no-color-diagnostics --static-swift-stdlib --scratch-path .build-static $(INSTALL_LINK) --product stylusd)
	@$(call swift_locked,.build-static,$(SWIFT) build -c release --no-color-diagnostics --static-swift-stdlib --scratch-path .build-static $(INSTALL_LINK) --product stylusctl)

# A build folder copied or moved from another checkout: SwiftPM's module cache
# keeps the old path, and the build fails ("was compiled with module cache path",
# "missing required module 'SwiftShims'"). The folder's checkout-path says where it
# was built (before it, SwiftPM's build plan: its paths name the folder); built
# elsewhere, its module cache is cleared, and SwiftPM rebuilds it.
define forget_moved_build
	@if [ -d $(1) ]; then \
		if [ -f $(1)/checkout-path ]; then [ "$$(cat $(1)/checkout-path)" = "$(CURDIR)" ]; \
		else ! ls $(1)/*.yaml >/dev/null 2>&1 || grep -qsF '"$(CURDIR)/$(1)/' $(1)/*.yaml; fi \
		|| { echo "$(1) was built at another path: clearing its module cache"; rm -rf $(1)/*/*/ModuleCache; }; \
		echo "$(CURDIR)" > $(1)/checkout-path; \
	fi
endef
# A SwiftPM build in scratch folder $(1): one at a time per folder, and its temporary
# folders (TemporaryDirectory.*, a dozen a build) under that folder, not left in /tmp.
# Two makes in one tree at once (CI's two chains: a test's make run beside another
# stage's build) would otherwise meet: SwiftPM does not wait for a build database
# another build holds ("database is locked"), so flock waits for it; and each build's
# temporary folder is its own (the shell's pid), removed by the shell that made it.
# Usage: $(call swift_locked,SCRATCH,COMMAND) in a recipe line of its own.
swift_locked = mkdir -p $(CURDIR)/$(1)/tmp && tmp=$(CURDIR)/$(1)/tmp/$$$$ && mkdir -p $$tmp && \
	flock $(CURDIR)/$(1)/tmp env TMPDIR=$$tmp $(2); status=$$?; rm -rf $$tmp; exit $$status

# The binaries are stripped as they are installed (the build keeps its symbols).
# Completions and man pages for both programs come from their argument parsers.
install: install-build install-overlay
	install -Dm755 -s --strip-program=$(STRIP) .build-static/release/stylusd $(DESTDIR)$(BINDIR)/stylusd
	install -Dm755 -s --strip-program=$(STRIP) .build-static/release/stylusctl $(DESTDIR)$(BINDIR)/stylusctl
	@# An earlier install's parser program: stylusd is its own parser child now.
	rm -f $(DESTDIR)$(LIBEXECDIR)/stylusd-parse-config
	rmdir $(DESTDIR)$(LIBEXECDIR) 2>/dev/null || true
	install -d $(DESTDIR)$(USERUNITDIR)
	sed 's|^ExecStart=.*|ExecStart=$(BINDIR)/stylusd|' systemd/stylusd.service > $(DESTDIR)$(USERUNITDIR)/stylusd.service
	install -m644 systemd/stylusd.socket $(DESTDIR)$(USERUNITDIR)/stylusd.socket
	install -Dm644 udev/70-stylusd.rules $(DESTDIR)$(UDEVRULESDIR)/70-stylusd.rules
	install -Dm644 udev/70-stylusd-uinput.rules $(DESTDIR)$(UDEVRULESDIR)/70-stylusd-uinput.rules
	install -Dm644 udev/stylusd-uinput.conf $(DESTDIR)$(MODULESLOADDIR)/stylusd-uinput.conf
	install -Dm644 udev/50-stylusd.quirks $(DESTDIR)$(QUIRKSDIR)/50-stylusd.quirks
	install -d $(DESTDIR)$(COMPLETIONSDIR) $(DESTDIR)$(ZSHCOMPLETIONSDIR) $(DESTDIR)$(FISHCOMPLETIONSDIR)
	for p in stylusd stylusctl; do \
		.build-static/release/$$p --generate-completion-script bash > $(DESTDIR)$(COMPLETIONSDIR)/$$p && \
		.build-static/release/$$p --generate-completion-script zsh > $(DESTDIR)$(ZSHCOMPLETIONSDIR)/_$$p && \
		.build-static/release/$$p --generate-completion-script fish > $(DESTDIR)$(FISHCOMPLETIONSDIR)/$$p.fish || exit 1; \
	done
	SWIFT=$(SWIFT) tools/man.sh .build-static/release $(DESTDIR)$(MANDIR)/man1
	install -Dm644 packaging/deb/stylusd.toml.5 $(DESTDIR)$(MANDIR)/man5/stylusd.toml.5
	install -Dm644 examples/config.toml $(DESTDIR)$(DOCDIR)/examples/config.toml
	@echo "installed under $(DESTDIR)$(PREFIX); then: sudo udevadm control --reload && sudo udevadm trigger,"
	@echo "and as yourself: systemctl --user daemon-reload && systemctl --user enable --now stylusd.socket"

# The link order file for install-build: run after changes that move the
# daemon's start-up code; needs valgrind (installed when missing).
startup-order: install-build
	$(call install_missing,valgrind)
	tools/startup-order.sh .build-static/release/stylusd packaging/stylusd.order
	$(MAKE) --no-print-directory install-build

# Only the udev rules (what the probe's permission hint points at).
install-udev:
	install -Dm644 udev/70-stylusd.rules $(DESTDIR)$(UDEVRULESDIR)/70-stylusd.rules
	install -Dm644 udev/70-stylusd-uinput.rules $(DESTDIR)$(UDEVRULESDIR)/70-stylusd-uinput.rules
	udevadm control --reload && udevadm trigger --subsystem-match=input

# Everything install put there and nothing else: the programs, the canvas,
# the GNOME extension's variants, its selector and the selected copy, units, autostart and applications entries, udev rules, the module list, the libinput quirk,
# completions, man pages and the example, and an earlier install's parser
# program in LIBEXECDIR. A folder is removed only when empty (it may be
# shared: /usr/local/bin).
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/stylusd $(DESTDIR)$(BINDIR)/stylusctl $(DESTDIR)$(BINDIR)/stylus-canvas \
	      $(DESTDIR)$(LIBEXECDIR)/stylusd-parse-config \
	      $(DESTDIR)$(USERUNITDIR)/stylusd.service $(DESTDIR)$(USERUNITDIR)/stylusd.socket $(DESTDIR)$(USERUNITDIR)/stylus-canvas.service \
	      $(DESTDIR)$(AUTOSTARTDIR)/stylus-canvas.desktop $(DESTDIR)$(PREFIX)/share/applications/stylus-canvas.desktop $(DESTDIR)$(MANDIR)/man1/stylus-canvas.1 $(DESTDIR)$(MANDIR)/man5/stylusd.toml.5 \
	      $(DESTDIR)$(UDEVRULESDIR)/70-stylusd.rules $(DESTDIR)$(UDEVRULESDIR)/70-stylusd-uinput.rules \
	      $(DESTDIR)$(MODULESLOADDIR)/stylusd-uinput.conf $(DESTDIR)$(QUIRKSDIR)/50-stylusd.quirks \
	      $(DESTDIR)$(DOCDIR)/examples/config.toml \
	      $(DESTDIR)$(GNOMEEXTDIR)/$(GNOME_EXT)/extension.js $(DESTDIR)$(GNOMEEXTDIR)/$(GNOME_EXT)/metadata.json
	for p in stylusd stylusctl; do \
		rm -f $(DESTDIR)$(COMPLETIONSDIR)/$$p $(DESTDIR)$(ZSHCOMPLETIONSDIR)/_$$p $(DESTDIR)$(FISHCOMPLETIONSDIR)/$$p.fish \
		      $(DESTDIR)$(MANDIR)/man1/$$p.1; \
	done
	for v in $(GNOME_VARIANTS); do \
		rm -f $(DESTDIR)$(GNOMEVARIANTSDIR)/$$v/$(GNOME_EXT)/extension.js $(DESTDIR)$(GNOMEVARIANTSDIR)/$$v/$(GNOME_EXT)/metadata.json; \
		rmdir $(DESTDIR)$(GNOMEVARIANTSDIR)/$$v/$(GNOME_EXT) $(DESTDIR)$(GNOMEVARIANTSDIR)/$$v 2>/dev/null || true; \
	done
	rm -f $(DESTDIR)$(GNOME_SELECT)
	-rmdir $(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(DOCDIR) $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(GNOMEEXTDIR)/$(GNOME_EXT) \
	       $(DESTDIR)$(GNOMEVARIANTSDIR) $(DESTDIR)$(dir $(GNOMEVARIANTSDIR)) $(DESTDIR)$(STYLUSLIBDIR) 2>/dev/null

# stylus-canvas, the canvas overlay: Overlay/ is its own SwiftPM package (it
# uses the root package's StylusClient), so the daemon never needs its libraries.
DEB_OVERLAY      := libglib2.0-dev libcairo2-dev libwayland-dev libwayland-bin wayland-protocols librust-wayland-protocols-dev libxkbcommon-dev libxcb1-dev libxcb-randr0-dev libxcb-shape0-dev libxcb-xinput-dev libxcb-xfixes0-dev libxcb-imdkit-dev
DEB_OVERLAY_TEST := xvfb xauth imagemagick librsvg2-bin x11-apps x11-utils openbox xcompmgr xdotool xclip wl-clipboard hsetroot weston sway grim xwayland wtype foot python3-gi gir1.2-gtk-4.0 \
                    gnome-shell gjs mutter dbus-user-session dbus-x11 kwin-wayland
# One tree, the shipped build: the tests, make run, install and the .deb use it.
OVERLAY_BIN      := Overlay/.build-static/release/stylus-canvas
AUTOSTARTDIR     ?= /etc/xdg/autostart

# The GNOME Shell extension (gnome-extension/): the modules of src/ and the numbers of
# canvas-spec.json joined into one extension.js for GNOME 43-44 and one for 45-48.
# install puts both in GNOMEVARIANTSDIR/43 and /45, and the selector (packaging/
# select-gnome-extension) copies to GNOMEEXTDIR the one the installed GNOME Shell
# loads (none without GNOME Shell); the .deb's postinst runs it, and again when
# gnome-shell is upgraded (a dpkg trigger).
GNOMEEXTDIR        ?= $(PREFIX)/share/gnome-shell/extensions
GNOMEVARIANTSDIR   ?= $(PREFIX)/share/stylusd/gnome-extension
STYLUSLIBDIR       ?= $(PREFIX)/lib/stylusd
GNOME_EXT          := stylus-canvas@stylusd
GNOME_VARIANTS     := 43 45
GNOME_SELECT       := $(STYLUSLIBDIR)/select-gnome-extension
gnome-extension:
	@gnome-extension/build.sh .build-gnome >/dev/null

# Before a build of Overlay/ in scratch folder $(1), whose plan is $(2).yaml:
# SwiftPM (6.3) keeps its build plan when a file is added to the root package that
# Overlay/ depends on by path, then fails with "cannot find ... in scope": plan
# afresh, but only when the root's list of source files changed.
define overlay_prepare
	@mkdir -p Overlay/$(1); \
	files=$$(find Sources -name '*.swift' | LC_ALL=C sort | cksum); \
	if [ "$$files" != "$$(cat Overlay/$(1)/root-sources 2>/dev/null)" ]; then \
		rm -f Overlay/$(1)/$(2).yaml; echo "$$files" > Overlay/$(1)/root-sources; \
	fi
	@Overlay/generate-protocols.sh
endef

overlay: deps gnome-extension
	$(call install_missing,$(DEB_OVERLAY))
	$(call forget_moved_build,Overlay/.build-static)
	$(call overlay_prepare,.build-static,release)
	@# With the Swift runtime inside, like the daemon's: it runs without the toolchain.
	@cd Overlay && $(call swift_locked,Overlay/.build-static,$(SWIFT) build -c release --no-color-diagnostics --static-swift-stdlib -Xswiftc -use-ld=lld --scratch-path .build-static --product stylus-canvas)

# stylus-canvas's own unit tests (Overlay/Tests: its options, the daemon's lines as it
# reads them, the PNG renderer's sizes), in a debug build apart from the shipped one.
test-overlay-unit: deps gnome-extension
	$(call install_missing,$(DEB_OVERLAY))
	$(call overlay_prepare,.build-test,debug)
	cd Overlay && $(SWIFT) build --build-tests --no-color-diagnostics --scratch-path .build-test
	cd Overlay && $(SWIFT) test --skip-build --scratch-path .build-test

# The overlay against a live daemon on a headless X11 desktop (screenshots), make run on that desktop (the overlay
# starts beside the daemon, Ctrl-C stops both), then Wayland: the layer-shell canvas under headless sway
# (screenshots, clicks, two outputs), and weston, which has no layer-shell (the fallback).
test-overlay: release overlay
	$(call install_missing,$(DEB_OVERLAY_TEST))
	python3 Tests/overlay/overlay_test.py --bin $(BIN) --canvas $(OVERLAY_BIN) --no-install --screenshot docs/images/canvas.png
	python3 Tests/overlay/make_run_test.py --canvas $(OVERLAY_BIN) --no-install
	python3 Tests/overlay/layer_shell_test.py --bin $(BIN) --canvas $(OVERLAY_BIN) --screenshot docs/images/canvas-sway.png
	python3 Tests/desktops/kwin_test.py --bin $(BIN) --canvas $(OVERLAY_BIN)
	python3 Tests/overlay/wayland_smoke.py --bin $(BIN) --canvas $(OVERLAY_BIN)
	python3 Tests/overlay/snapshot_test.py --bin $(BIN) --canvas $(OVERLAY_BIN) --no-install
	python3 Tests/overlay/snapshot_test.py --bin $(BIN) --canvas $(OVERLAY_BIN) --sway
	python3 Tests/overlay/gnome_shell_test.py --bin $(BIN) --canvas $(OVERLAY_BIN) --extension .build-gnome/43/$(GNOME_EXT) \
		--screenshot docs/images/canvas-gnome.png

# Today's desktops, which Debian 12 does not ship: GNOME Shell 48 (the extension's 45 variant), sway 1.10
# (layer-shell, a fractional scale) and KWin 6 nested in sway, in a Debian 13 root that
# Tests/desktops/trixie_root.sh builds with mmdebstrap (about 1.3 GB, cached under /var/cache/stylusd-test)
# and Tests/desktops/run.sh enters with this machine's release builds. Needs root (chroot, mounts).
# deb48 installs the Debian 12 .deb in that root (an overlay over it) and runs the GNOME 48
# extension tests on what the package installed.
# In CI its stage needs the release and canvas stages, so it builds nothing itself (a second
# overlay build beside chain B's would only race it); alone it builds what is missing. The .deb
# is the one the deb stage (or make deb) left, packed again only when a binary or the extension
# is newer; a failed packing leaves none, so that deb48 alone fails, never on an old package.
test-desktops: gnome-extension
	@[ -x $(BIN)/stylusd ] && [ -x $(OVERLAY_BIN) ] || $(MAKE) --no-print-directory release overlay
	@[ $(DEB_FILE) -nt $(BIN)/stylusd ] && [ $(DEB_FILE) -nt $(BIN)/stylusctl ] && [ $(DEB_FILE) -nt $(OVERLAY_BIN) ] \
	  && [ $(DEB_FILE) -nt .build-gnome/45/$(GNOME_EXT)/extension.js ] \
	  || $(MAKE) --no-print-directory deb DEB_BUILT=yes || rm -f $(DEB_FILE)
	STYLUS_DEB=$(DEB_FILE) Tests/desktops/run.sh
.PHONY: test-desktops

# The overlay, its user unit, its autostart entry and its applications entry (KWin's ScreenShot2 authorisation) (part of `install`).
install-overlay: overlay
	install -Dm755 -s --strip-program=$(STRIP) $(OVERLAY_BIN) $(DESTDIR)$(BINDIR)/stylus-canvas
	install -d $(DESTDIR)$(USERUNITDIR)
	sed 's|^ExecStart=.*|ExecStart=$(BINDIR)/stylus-canvas|' Overlay/stylus-canvas.service > $(DESTDIR)$(USERUNITDIR)/stylus-canvas.service
	install -Dm644 Overlay/stylus-canvas.desktop $(DESTDIR)$(AUTOSTARTDIR)/stylus-canvas.desktop
	@# KWin's ScreenShot2 (snapshots) serves only an executable that an applications entry names by its full path.
	install -d $(DESTDIR)$(PREFIX)/share/applications
	sed 's|^Exec=.*|Exec=$(BINDIR)/stylus-canvas|' Overlay/stylus-canvas.desktop > $(DESTDIR)$(PREFIX)/share/applications/stylus-canvas.desktop
	install -Dm644 packaging/deb/stylus-canvas.1 $(DESTDIR)$(MANDIR)/man1/stylus-canvas.1
	for v in $(GNOME_VARIANTS); do \
		install -Dm644 -t $(DESTDIR)$(GNOMEVARIANTSDIR)/$$v/$(GNOME_EXT) .build-gnome/$$v/$(GNOME_EXT)/extension.js .build-gnome/$$v/$(GNOME_EXT)/metadata.json || exit 1; \
	done
	install -d $(DESTDIR)$(STYLUSLIBDIR)
	sed -e 's|@VARIANTS@|$(GNOMEVARIANTSDIR)|' -e 's|@EXTDIR@|$(GNOMEEXTDIR)|' packaging/select-gnome-extension > $(DESTDIR)$(GNOME_SELECT)
	chmod 755 $(DESTDIR)$(GNOME_SELECT)
	@# Into a staging folder (DESTDIR: a package) the choice is the target machine's: its package runs the selector.
	$(if $(DESTDIR),@echo "install-overlay: DESTDIR: no GNOME extension variant selected; $(GNOME_SELECT) selects it where it is installed",$(GNOME_SELECT))

# The overlay's toggle-to-first-frame, ink latency and memory beside gromit-mpx on X11,
# then the layer-shell canvas's under sway (part of `bench`). gromit-mpx not installable
# here: its part says SKIPPED and why.
bench-overlay: release release-bench overlay
	$(call install_missing,$(DEB_OVERLAY_TEST))
	-$(call install_missing,gromit-mpx)
	python3 bench/overlay_bench.py --bin .build/release --canvas $(OVERLAY_BIN)
	@# The layer-shell canvas under headless sway, in the same run (its daemon: the shipped build, which `nobody` can run).
	python3 bench/layer_shell_bench.py --bin $(BIN) --canvas $(OVERLAY_BIN)
	python3 bench/gnome_bench.py --bin $(BIN) --canvas $(OVERLAY_BIN)
	@# export of a full 1920x1080 canvas, PNG through the canvas's renderer and SVG (no display).
	python3 bench/export_bench.py --bin $(BIN) --canvas $(OVERLAY_BIN) | tee -a bench-report.txt
	@# snapshot and copy: request → PNG, copy → paste at 1080p and 2160p on X11 and sway (issue 38).
	python3 bench/snapshot_bench.py --bin $(BIN) --canvas $(OVERLAY_BIN) | tee -a bench-report.txt

# The overlay benches on sway 1.10, KWin 6 and GNOME Shell 48 in the Debian 13 root of test-desktops
# (root only: chroot and mounts; PERFORMANCE.md section 9d). A bench says what it could not
# measure and never fails.
bench-desktops: gnome-extension
	@[ -x $(BIN)/stylusd ] && [ -x $(OVERLAY_BIN) ] || $(MAKE) --no-print-directory release overlay
	-Tests/desktops/run.sh bench-sway bench-gnome bench-kwin | tee -a bench-report.txt
.PHONY: bench-desktops

# The Debian package, .build-deb/stylusd_VERSION_ARCH.deb: what `make install
# PREFIX=/usr` installs, stylus-canvas built with the Swift runtime inside
# like the other two, Depends from dpkg-shlibdeps, no lintian error
# (docs/DEBIAN.md). Without root, missing tools are named, not installed.
DEB_VERSION := $(shell sed -n 's/.*static let current = "\(.*\)"/\1/p' Sources/StylusProtocol/StylusVersion.swift)
DEB_ARCH    := $(shell dpkg --print-architecture)
DEB_FILE    := .build-deb/stylusd_$(DEB_VERSION)_$(DEB_ARCH).deb
.PHONY: deb test-deb

# DEB_BUILT=yes packs the binaries already built (CI's release and canvas stages) without
# a build of its own.
deb:
	@packaging/need.sh deb $(DEB_BUILD) $(DEB_OVERLAY) dpkg-dev lintian || { echo "deb: not built"; exit 1; }
	$(if $(DEB_BUILT),@[ -x $(BIN)/stylusd ] && [ -x $(BIN)/stylusctl ] && [ -x $(OVERLAY_BIN) ] || { echo "deb: DEB_BUILT=yes but $(BIN) or $(OVERLAY_BIN) is not built"; exit 1; },$(MAKE) --no-print-directory install-build overlay)
	packaging/build-deb.sh $(DEB_VERSION) $(OVERLAY_BIN) .build-deb

# The package installed, run, verified and removed on a clean Debian 12 root
# (Tests/deb/test_deb.sh). It needs root and, once, the Debian archive;
# without either it says SKIPPED and why.
test-deb:
	@if [ "$$(id -u)" != 0 ]; then echo "test-deb: SKIPPED: installing into a clean root needs root (chroot, mounts)"; exit 0; fi; \
	$(MAKE) --no-print-directory deb && Tests/deb/test_deb.sh $(DEB_FILE)

clean:
	rm -rf .build .build-* Overlay/.build Overlay/.build-*
