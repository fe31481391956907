# stylusd — every target installs the Debian packages it needs first.
SWIFT      ?= swift
PREFIX     ?= /usr/local
DEB_BUILD  := pkg-config libinput-dev libevdev-dev libwacom-dev
DEB_TEST   := $(DEB_BUILD) python3 evemu-tools
RECORDING  := Tests/Fixtures/recordings/Wacom_Cintiq_22HDT_Pen.events
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps deps-test build release run demo test test-swift test-crosscheck test-contract hil bench clean

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
	$(MAKE) --no-print-directory hil

# The socket contract against a live daemon on this machine.
test-contract: release
	python3 tests/socket_contract.py --bin .build/release

test-crosscheck: release
	python3 tests/crosscheck_replay.py --stylusd .build/release/stylusd Tests/Fixtures/recordings

# Hardware-in-the-loop: virtual pens in a QEMU guest with a stock Debian
# kernel (this machine has no /dev/uinput). Status 77 means no guest could
# start here at all; that is reported as SKIPPED, never as a pass.
hil: release
	@hil/vm.sh; status=$$?; \
	if [ $$status -eq 77 ]; then echo "hil: SKIPPED (see the reason above)"; exit 0; fi; \
	exit $$status

bench: deps
	$(SWIFT) build -c release --product stylus-bench
	LD_PRELOAD=$$(ls .build/release/libMallocInterposerSwift.so) .build/release/stylus-bench $(RECORDING)

clean:
	rm -rf .build
