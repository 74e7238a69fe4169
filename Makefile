# displayd: `make run` runs it, `make test` tests it; both install what is missing first.

PREFIX ?= $(HOME)/.local
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
# -Osize: the daemon's own code smaller and fewer of its pages resident; the CLI's
# start-up, the CPU per plug and the mirror's frame rate measured no worse.
RELEASE_FLAGS = -c release --static-swift-stdlib -Xswiftc -Osize

# Debian packages: build headers, the X servers the tests start, and the X tools they use.
BUILD_PACKAGES = pkg-config libx11-dev libxrandr-dev libxrender-dev libxdamage-dev \
  libxfixes-dev libxext-dev libxres-dev libxi-dev libx11-xcb-dev libxcb-randr0-dev libcairo2-dev \
  libpango1.0-dev fonts-dejavu-core fonts-noto-cjk libsystemd-dev \
  libwayland-dev libwayland-bin wayland-protocols librust-wayland-protocols-dev
TEST_PACKAGES = xcvt tigervnc-standalone-server xserver-xorg-core xserver-xorg-video-dummy \
  x11-xserver-utils x11-utils xauth python3 systemd man-db xdotool procps \
  dbus python3-dbusmock imagemagick xserver-xephyr xsettingsd xinput \
  xfce4-settings xfconf dbus-x11 mutter xwayland \
  autorandr kanshi hwdata wtype fish $(DEB_CHECK_PACKAGES)
# What scripts/deb-check builds, lints and installs the Debian package with.
DEB_CHECK_PACKAGES = dpkg-dev lintian debootstrap
BENCH_PACKAGES = hyperfine ffmpeg gcc
# What the demo (scripts/demo: `make run` with no $DISPLAY) runs besides the daemon: Xvnc,
# python3 for scripts/vnc-layout, xsetroot and xwininfo. scripts/check-run-packages holds
# the program each one is there for.
DEMO_PACKAGES = tigervnc-standalone-server python3 x11-xserver-utils x11-utils
# What `make run` installs: the build's packages, and the demo's only when it runs the demo.
RUN_PACKAGES = $(strip $(BUILD_PACKAGES) $(if $(DISPLAY),,$(DEMO_PACKAGES)))

.PHONY: glue-deps all build release run test soak bench fuzz deps test-deps bench-deps clean format install uninstall
.PHONY: run-deps deb deb-check

all: build

# The build's packages, wayland-scanner and the Wayland protocols' XMLs among them: the
# package's WaylandGlue plugin generates the C glue from them in every `swift build`.
deps: glue-deps

glue-deps:
	@scripts/apt-ensure $(BUILD_PACKAGES)

test-deps: deps
	@scripts/apt-ensure $(BUILD_PACKAGES) $(TEST_PACKAGES)

run-deps: deps
	@scripts/apt-ensure $(RUN_PACKAGES)

bench-deps: deps
	@scripts/apt-ensure $(BUILD_PACKAGES) $(TEST_PACKAGES) $(BENCH_PACKAGES)

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build $(RELEASE_FLAGS)

## run: the daemon on $DISPLAY; with no $DISPLAY, the demo on a private virtual X server.
run: release run-deps
	@if [ -n "$$DISPLAY" ]; then \
	  exec .build/release/displayd run --display "$$DISPLAY"; \
	else \
	  scripts/demo .build/release/displayd; \
	fi

## test: every test, against private X servers the tests start themselves, and the real
## Wayland compositors of scripts/wayland-rig (made once; the Wayland tests skip without);
## then what make run installs (scripts/check-run-packages) and the Debian package (deb-check).
test: test-deps
	@scripts/wayland-rig >/dev/null || echo "make test: no Wayland rig (see the line above): the Wayland tests will skip"
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	scripts/check-run-packages
	@$(MAKE) --no-print-directory deb-check

SOAK_CYCLES ?= 1000

## soak: the long fault runs: SOAK_CYCLES plug/unplug cycles with mirror content (make test
## runs 100), then the storms again; prints X resources, descriptors and RSS first and last.
soak: test-deps
	$(SWIFT) build --build-tests
	DISPLAYD_SOAK_CYCLES=$(SOAK_CYCLES) $(SWIFT) test --skip-build --filter 'soakOfPlugUnplugCycles|aStormOf200Layouts|customModesDoNotLeakOverPlugCycles'

## bench: the figures the README quotes (medians over repeated runs); the Wayland ones on the
## rig of scripts/wayland-rig (sway 1.10.1, kanshi 1.5.1, wl-mirror 0.17.0), skipped without.
## With BENCH_REFERENCE=REVISION (say 68b833c), the daemon's CPU per plug is measured against
## that revision's release too, in alternating rounds (scripts/reference-build builds it).
BENCH_REFERENCE ?=
bench: release bench-deps
	SWIFTC=$(SWIFT)c Benchmarks/cli-query.sh
	Benchmarks/edid-decode.sh
	.build/release/displayd-bench plug 50
	.build/release/displayd-bench cpu 100
	@if [ -n "$(BENCH_REFERENCE)" ]; then \
	  ref=$$(scripts/reference-build "$(BENCH_REFERENCE)") && .build/release/displayd-bench cpu 100 "$$ref" 8; \
	fi
	.build/release/displayd-bench rss 1000 4
	.build/release/displayd-bench mirror 5
	@scripts/wayland-rig >/dev/null || echo "make bench: no Wayland rig (see the line above): the Wayland figures will be skipped"
	.build/release/displayd-bench wayland-plug 32
	.build/release/displayd-bench wayland-mirror 4 3
	.build/release/displayd-bench wayland-rss 4 3

## print-VARIABLE: a variable's value as make sees it (make print-RUN_PACKAGES; with no
## $DISPLAY, the demo's packages are in it).
print-%:
	@echo $($*)

format:
	$(SWIFT) format --in-place --recursive Sources Tests Benchmarks Package.swift

clean:
	rm -rf .build

FUZZ_SECONDS ?= 60
FUZZ_DIR ?= .build/fuzz
FUZZ_BIN = $(FUZZ_DIR)/release

FUZZ_TARGETS = edid config control
FUZZ_edid_MAX_LEN = 1024
FUZZ_config_MAX_LEN = 4096
FUZZ_control_MAX_LEN = 4096
# SwiftPM's --sanitize=fuzzer links libFuzzer (and leaves the fuzzers' main to it: they define
# none with DISPLAYD_LIBFUZZER), but passes only the last -sanitize to the compiler: the
# -Xswiftc flag after it instruments every module for coverage and ASan.
FUZZ_BUILD = $(SWIFT) build -c release --scratch-path $(FUZZ_DIR) --sanitize=fuzzer \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DDISPLAYD_LIBFUZZER

## fuzz: under libFuzzer with ASan for FUZZ_SECONDS each: the EDID decoder (seeded from the
## EDID corpus), the config reader (JSON5 text; seeded from the tests' configs) and the
## control protocol (bytes from a client). The fuzzers are the package's fuzz-* targets, over
## the real modules; every `swift build` builds them too (with a main that replays the seeds,
## which the tests run), so none can stop building unseen.
fuzz: deps
	mkdir -p $(FUZZ_DIR)/edid-corpus $(FUZZ_DIR)/config-corpus $(FUZZ_DIR)/control-corpus
	cp Tests/DisplayKitTests/Fixtures/edid/*.bin $(FUZZ_DIR)/edid-corpus/
	if [ -d ../shared/edid ]; then cp ../shared/edid/*.bin ../shared/edid/malformed/*.bin $(FUZZ_DIR)/edid-corpus/; fi
	cp Fuzz/seeds/config/* $(FUZZ_DIR)/config-corpus/
	cp Fuzz/seeds/control/* $(FUZZ_DIR)/control-corpus/
	for t in $(FUZZ_TARGETS); do $(FUZZ_BUILD) --product fuzz-$$t || exit 1; done
	# The Swift backtracer would hang on a trap under ASan; libFuzzer reports it.
	for t in $(FUZZ_TARGETS); do \
	  case $$t in edid) len=$(FUZZ_edid_MAX_LEN);; config) len=$(FUZZ_config_MAX_LEN);; *) len=$(FUZZ_control_MAX_LEN);; esac; \
	  SWIFT_BACKTRACE=enable=no $(FUZZ_BIN)/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) -max_len=$$len \
	    -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/$$t- $(FUZZ_DIR)/$$t-corpus || exit 1; \
	done

# Install paths. DESTDIR is prepended to each for staged installs.
BIN ?= .build/release/displayd
BINDIR ?= $(PREFIX)/bin
ifeq ($(patsubst /usr%,/usr,$(PREFIX)),/usr)
UNITDIR ?= $(PREFIX)/lib/systemd/user
else
UNITDIR ?= $(PREFIX)/share/systemd/user
endif
MANDIR ?= $(PREFIX)/share/man/man1
MAN5DIR ?= $(PREFIX)/share/man/man5
BASHDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHDIR ?= $(PREFIX)/share/zsh/site-functions
# fish reads vendor completions from $XDG_DATA_HOME too, so ~/.local works as /usr does.
FISHDIR ?= $(PREFIX)/share/fish/vendor_completions.d
INSTALLED = $(BINDIR)/displayd $(UNITDIR)/displayd.service $(MANDIR)/displayd.1 $(MAN5DIR)/displayd.5 \
  $(BASHDIR)/displayd $(ZSHDIR)/_displayd $(FISHDIR)/displayd.fish

.build/release/displayd:
	$(MAKE) release

## deb: displayd_VERSION-REVISION_amd64.deb here, of the release binary and what install puts
## under /usr (scripts/make-deb); VERSION is what `displayd --version` prints.
deb: release
	@scripts/apt-ensure dpkg-dev
	@scripts/make-deb $(BIN) .

## deb-check: the package built, lintian on it, then installed with apt-get, run, and purged
## in a Debian 12 chroot (scripts/deb-check; the chroot kept in /var/cache/displayd-deb-chroot).
deb-check: release
	@scripts/apt-ensure $(DEB_CHECK_PACKAGES)
	scripts/deb-check $(BIN)

## install: the binary, the user unit (ExecStart = the installed binary), man pages, completions.
install: $(BIN)
	install -D -m 755 $(BIN) $(DESTDIR)$(BINDIR)/displayd
	install -d $(DESTDIR)$(UNITDIR)
	sed 's|@BINDIR@|$(BINDIR)|' systemd/displayd.service > $(DESTDIR)$(UNITDIR)/displayd.service
	chmod 644 $(DESTDIR)$(UNITDIR)/displayd.service
	install -D -m 644 docs/displayd.1 $(DESTDIR)$(MANDIR)/displayd.1
	if [ -f docs/displayd.5 ]; then install -D -m 644 docs/displayd.5 $(DESTDIR)$(MAN5DIR)/displayd.5; fi
	install -D -m 644 completions/displayd.bash $(DESTDIR)$(BASHDIR)/displayd
	install -D -m 644 completions/_displayd $(DESTDIR)$(ZSHDIR)/_displayd
	install -D -m 644 completions/displayd.fish $(DESTDIR)$(FISHDIR)/displayd.fish
	@echo "installed; next: systemctl --user import-environment DISPLAY XAUTHORITY && systemctl --user daemon-reload && systemctl --user enable --now displayd"

## uninstall: removes what install put in place, and the folders it leaves empty.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	for d in $(sort $(dir $(addprefix $(DESTDIR),$(INSTALLED)))); do \
	  rmdir -p --ignore-fail-on-non-empty "$$d" 2>/dev/null || true; done
