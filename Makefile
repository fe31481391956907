# stylusd — every target installs the Debian packages it needs first.
SWIFT      ?= swift
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
USERUNITDIR ?= $(PREFIX)/lib/systemd/user
# udev reads /usr/lib/udev/rules.d and /etc/udev/rules.d, not /usr/local.
UDEVRULESDIR ?= $(if $(filter /usr,$(PREFIX)),/usr/lib/udev/rules.d,/etc/udev/rules.d)
COMPLETIONSDIR ?= $(PREFIX)/share/bash-completion/completions
DEB_BUILD  := pkg-config libinput-dev libevdev-dev libwacom-dev
DEB_TEST   := $(DEB_BUILD) python3 evemu-tools
RECORDING  := Tests/Fixtures/recordings/Wacom_Cintiq_22HDT_Pen.events
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: overlay test-overlay install-overlay bench-overlay bench-flood all deps deps-test build release run demo test test-swift test-crosscheck test-contract test-fuzz test-sanitize fuzz hil bench bench-latency install install-build install-udev uninstall clean

all: build

# Installs only what dpkg reports missing, so a ready machine skips apt.
define install_missing
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
endef

deps:
	$(call install_missing,$(DEB_BUILD))

deps-test:
	$(call install_missing,$(DEB_TEST))

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# The daemon in the foreground on seat0; without a pen it says why and runs
# button-only. Ctrl-C stops it.
run: release
	.build/release/stylusd

# The engine on a real recording: a Cintiq 22HDT session whose side-button
# double presses open and minimize the canvas.
demo: release
	.build/release/stylusd replay $(RECORDING)

test: deps-test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) --no-print-directory test-crosscheck
	$(MAKE) --no-print-directory test-contract
	$(MAKE) --no-print-directory test-fuzz
	$(MAKE) --no-print-directory test-sanitize
	$(MAKE) --no-print-directory test-overlay
	$(MAKE) --no-print-directory hil

# The socket contract against a live daemon on this machine.
test-contract: release
	python3 Tests/contract/socket_contract.py --bin .build/release

test-crosscheck: release
	python3 Tests/crosscheck/crosscheck_replay.py --stylusd .build/release/stylusd Tests/Fixtures/recordings

# libFuzzer with AddressSanitizer over the socket protocol, evemu recordings
# and config.toml, FUZZ_SECONDS each, from corpora seeded by the docs and
# fixtures. Findings go to .build-fuzz/artifacts/ (see Fuzz/run.sh).
FUZZ_SECONDS ?= 300
fuzz: deps-test
	Fuzz/run.sh $(FUZZ_SECONDS)

# What CI runs: each fuzzer for a minute.
test-fuzz: deps-test
	Fuzz/run.sh 60

# The Swift tests and the socket contract (live daemon and stylusctl) under
# AddressSanitizer (with LeakSanitizer), then under ThreadSanitizer.
test-sanitize: deps-test
	Tests/sanitize/sanitize.sh address thread

# Hardware-in-the-loop: virtual pens in a QEMU guest with a stock Debian
# kernel (this machine has no /dev/uinput). Status 77 means no guest could
# start here at all; that is reported as SKIPPED, never as a pass.
hil: release
	@hil/vm.sh; status=$$?; \
	if [ $$status -eq 77 ]; then echo "hil: SKIPPED (see the reason above)"; exit 0; fi; \
	exit $$status

# Every benchmark on this machine, then the latency one in the guest; the
# report goes to bench-report.txt (figures kept in docs/PERFORMANCE.md).
bench: release install-build
	$(SWIFT) build -c release --product stylus-bench
	python3 bench/bench.py --bin .build/release --static .build-static/release
	$(MAKE) --no-print-directory bench-latency
	$(MAKE) --no-print-directory bench-flood
	$(MAKE) --no-print-directory bench-overlay

bench-latency: release
	@HIL_SUITE=latency hil/vm.sh | tee -a bench-report.txt | grep -E '^latency:|SKIPPED'; true

# The non-blocking loop under a flood of devices and reload (docs/SECURITY.md):
# status p99 and the longest pen gap against twice their baseline, in one guest run.
bench-flood: release
	@HIL_SUITE=flood hil/vm.sh | tee -a bench-report.txt | grep -E 'flood|SKIPPED'; true

# Installed binaries carry the Swift runtime inside (--static-swift-stdlib),
# so they run without the toolchain and start with less memory.
install-build: deps
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-static --product stylusd
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-static --product stylusctl

install: install-build install-overlay
	install -Dm755 .build-static/release/stylusd $(DESTDIR)$(BINDIR)/stylusd
	install -Dm755 .build-static/release/stylusctl $(DESTDIR)$(BINDIR)/stylusctl
	install -d $(DESTDIR)$(USERUNITDIR)
	sed 's|^ExecStart=.*|ExecStart=$(BINDIR)/stylusd|' systemd/stylusd.service > $(DESTDIR)$(USERUNITDIR)/stylusd.service
	install -m644 systemd/stylusd.socket $(DESTDIR)$(USERUNITDIR)/stylusd.socket
	install -Dm644 udev/70-stylusd.rules $(DESTDIR)$(UDEVRULESDIR)/70-stylusd.rules
	install -d $(DESTDIR)$(COMPLETIONSDIR)
	.build-static/release/stylusctl completions bash > $(DESTDIR)$(COMPLETIONSDIR)/stylusctl
	@echo "installed under $(DESTDIR)$(PREFIX); then: sudo udevadm control --reload && sudo udevadm trigger,"
	@echo "and as yourself: systemctl --user daemon-reload && systemctl --user enable --now stylusd.socket"

# Only the udev rule (what the probe's permission hint points at).
install-udev:
	install -Dm644 udev/70-stylusd.rules $(DESTDIR)$(UDEVRULESDIR)/70-stylusd.rules
	udevadm control --reload && udevadm trigger --subsystem-match=input

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/stylusd $(DESTDIR)$(BINDIR)/stylusctl $(DESTDIR)$(USERUNITDIR)/stylusd.service \
	      $(DESTDIR)$(USERUNITDIR)/stylusd.socket $(DESTDIR)$(UDEVRULESDIR)/70-stylusd.rules $(DESTDIR)$(COMPLETIONSDIR)/stylusctl

# stylus-canvas, the canvas overlay: Overlay/ is its own SwiftPM package (it
# uses the root package's StylusClient), so the daemon never needs GTK.
DEB_OVERLAY      := libgtk-4-dev
DEB_OVERLAY_TEST := xvfb xauth imagemagick x11-apps openbox xcompmgr xdotool hsetroot weston
OVERLAY_BIN      := Overlay/.build/release/stylus-canvas
AUTOSTARTDIR     ?= /etc/xdg/autostart

overlay: deps
	$(call install_missing,$(DEB_OVERLAY))
	cd Overlay && $(SWIFT) build -c release --product stylus-canvas

# Unit tests of the overlay's model, then the overlay against a live daemon on
# a headless X11 desktop (screenshots), then a Wayland smoke test (weston headless).
test-overlay: release overlay
	$(call install_missing,$(DEB_OVERLAY_TEST))
	cd Overlay && $(SWIFT) test
	python3 Tests/overlay/overlay_test.py --bin .build/release --canvas $(OVERLAY_BIN) --no-install --screenshot docs/images/canvas.png
	python3 Tests/overlay/wayland_smoke.py --bin .build/release --canvas $(OVERLAY_BIN)

# The overlay, its user unit and its autostart entry (part of `install`).
install-overlay: overlay
	install -Dm755 $(OVERLAY_BIN) $(DESTDIR)$(BINDIR)/stylus-canvas
	install -Dm644 Overlay/stylus-canvas.service $(DESTDIR)$(USERUNITDIR)/stylus-canvas.service
	install -Dm644 Overlay/stylus-canvas.desktop $(DESTDIR)$(AUTOSTARTDIR)/stylus-canvas.desktop

# The toggle-to-first-frame benchmark beside gromit-mpx (part of `bench`).
bench-overlay: release overlay
	$(call install_missing,$(DEB_OVERLAY_TEST) gromit-mpx)
	python3 bench/overlay_bench.py --bin .build/release --canvas $(OVERLAY_BIN)

clean:
	rm -rf .build Overlay/.build
