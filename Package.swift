// swift-tools-version: 6.3;(experimentalCGen)
// experimentalCGen: the Wayland glue's build-tool plugin generates C code and headers for C
// targets (headers from plugins are dropped without it).
import PackageDescription

// The binary's start-up, paid by every CLI query: lld with packed relative
// relocations (DT_RELR: 7 KB of relocation table instead of 870 KB; glibc 2.36) and immediate
// binding with a read-only GOT (full RELRO, at no measured cost); libstdc++, libgcc and the X
// client libraries linked statically (scripts/static-libs), so that libc and libm are the only
// shared objects to load and relocate at every start.
let packageDirectory = String(#filePath.dropLast("Package.swift".count))
let leanStart: [LinkerSetting] = [
  .unsafeFlags([
    "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "-z", "-Xlinker", "now",
    "-Xclang-linker", "-static-libgcc", "-Xclang-linker", "-L\(packageDirectory)scripts/static-libs",
  ])
]

let package = Package(
  name: "displayd",
  products: [
    .executable(name: "displayd", targets: ["displayd"]),
    .library(name: "DisplayKit", targets: ["DisplayKit"]),
    .library(name: "DisplayModel", targets: ["DisplayModel"]),
    .library(name: "DisplaySupport", targets: ["DisplaySupport"]),
  ],
  targets: [
    // No pkgConfig: xrandr.pc's -L/usr/lib/x86_64-linux-gnu would come first on the library
    // path and hide scripts/static-libs; the headers and libraries are in the default paths.
    .systemLibrary(
      name: "CXrandr",
      providers: [
        .apt([
          "libx11-dev", "libxrandr-dev", "libxrender-dev", "libxdamage-dev",
          "libxfixes-dev", "libxext-dev", "libxi-dev", "libx11-xcb-dev", "libxcb-randr0-dev",
        ])
      ]
    ),
    // cairo and pango, loaded with dlopen when the first picture is drawn, not linked: the
    // query commands never map them.
    .target(name: "CRender"),
    .systemLibrary(name: "CLinux"),
    // The Wayland protocols' glue (generated in the build by the WaylandGlue plugin, with
    // wayland-scanner from Debian's XMLs) and libwayland-client, loaded with dlopen when the
    // Wayland backend is used, not linked.
    .target(name: "CWayland", plugins: ["WaylandGlue"]),
    .plugin(name: "WaylandGlue", capability: .buildTool()),
    // X-Resource: only the test rig counts a client's server resources.
    .systemLibrary(name: "CXRes", providers: [.apt(["libxres-dev"])]),
    // What every process needs and no display server is: the system-call funnel, whole-file
    // reads and atomic replacement, poll(), signals, deadline timers, the clock, the console,
    // logging, text made printable, JSON, and giving freed memory back.
    .target(name: "DisplaySupport", dependencies: ["CLinux"]),
    // The pure model: heads and their diff, geometry, EDID, config, mode policy, planners,
    // window policy, mirror geometry, the values a display server and the daemon exchange.
    // No X, no RandR shapes, no cairo, no I/O: it parses the bytes others read.
    .target(name: "DisplayModel"),
    // The placeholder's drawing, the picture port's painter: the only module that uses cairo
    // and pango.
    .target(name: "DisplayRender", dependencies: ["DisplayModel", "DisplayPorts", "DisplaySupport", "CRender"]),
    // The two ports every display server implements: an output manager (heads, configurations
    // tested then applied) and a surface per monitor (a picture or a mirror). Protocols, the
    // surface's values (a picture is plain pixels; the heads' values are the model's), the
    // event source and layout the daemon speaks, and the painter that makes the pictures:
    // the backends and the renderer are peers behind them.
    .target(name: "DisplayPorts", dependencies: ["DisplayModel", "DisplaySupport"]),
    // The wlroots edge: wlr-output-management heads and configurations, layer-shell
    // surfaces and screencopy mirrors. The only module that speaks Wayland.
    .target(
      name: "DisplayWayland",
      dependencies: ["DisplayModel", "DisplayPorts", "DisplayRender", "DisplaySupport", "CWayland"]),
    // The GNOME edge: mutter's DisplayConfig on the session bus (sd-bus, loaded at first use).
    .target(name: "DisplayMutter", dependencies: ["DisplayModel", "DisplayPorts", "DisplaySupport", "CLinux"]),
    // The X edge: RandR's model (the topology, its outputs, CRTCs and the plans over them),
    // the connection, snapshots, applying plans, windows, mirrors, cursor, screenshots (into
    // the renderer's image), and the RandR output manager. The only module that imports Xlib.
    .target(
      name: "DisplayX11", dependencies: ["DisplayModel", "DisplayPorts", "DisplayRender", "DisplaySupport", "CXrandr"]),
    // The daemon: hears connect and disconnect, reconciles, decides what each monitor's
    // surface shows. It knows the display server only as its events (`ChangeSource`) and
    // its layout (`OutputManagerLayout` over an `OutputManager`), the surfaces as the
    // `SurfaceHost` port and the drawing as the `PicturePainter` port, never X, Wayland or cairo.
    .target(name: "DisplayKit", dependencies: ["DisplayModel", "DisplayPorts", "DisplaySupport"]),
    // The service around it: the poll() loop's descriptors, control socket and its wire
    // types, hooks, sd_notify, reading the config file, and the one factory that opens a
    // backend's ports (`DisplayBackend.open`).
    .target(
      name: "DisplayService",
      dependencies: [
        "DisplayKit", "DisplayModel", "DisplayPorts", "DisplayRender", "DisplaySupport", "DisplayWayland", "DisplayX11",
        "CLinux",
      ]),
    // The command line: argument parsing, exit statuses, the text and JSON reports. A library
    // only so the tests can reach it; only the executable and the tests use it.
    .target(name: "DisplayCLI", dependencies: ["DisplayModel", "DisplayPorts", "DisplayService", "DisplaySupport"]),
    .executableTarget(
      name: "displayd",
      dependencies: [
        "DisplayCLI", "DisplayKit", "DisplayModel", "DisplayRender", "DisplayService", "DisplaySupport",
        "DisplayWayland", "DisplayX11",
      ],
      linkerSettings: leanStart),
    // The real-X test rig: private servers, an RFB client for hot-plug, an Xlib inspector.
    .target(
      name: "XRig", dependencies: ["CXrandr", "CXRes", "CLinux", "CWayland", "CWaylandRig"], path: "Tests/XRig",
      exclude: ["Resources"]),
    // The interfaces the rig's own Wayland client binds by, over the project's glue.
    .target(name: "CWaylandRig", dependencies: ["CWayland"], path: "Tests/CWaylandRig", plugins: ["WaylandGlue"]),
    // The tests of every module: pure values, the daemon against fakes, real servers and
    // programs.
    .testTarget(
      name: "DisplaydTests",
      dependencies: [
        "DisplayCLI", "DisplayKit", "DisplayModel", "DisplayPorts", "DisplayRender", "DisplayService", "DisplaySupport",
        "DisplayWayland", "DisplayX11", "DisplayMutter", "CXrandr", "XRig",
      ],
      path: "Tests/DisplayKitTests",
      exclude: ["Fixtures"]
    ),
    // The fuzzers, over the real modules. A plain build (every `swift build`) gives each the
    // seed runner as its main, so the tests build and run them; `make fuzz` builds them with
    // libFuzzer (-sanitize=fuzzer,address -DDISPLAYD_LIBFUZZER), whose main drives them.
    .target(name: "FuzzRunner", path: "Fuzz/Runner"),
    .executableTarget(
      name: "fuzz-edid",
      dependencies: ["DisplayCLI", "DisplayModel", "DisplayService", "DisplaySupport", "FuzzRunner"],
      path: "Fuzz/EDID"),
    .executableTarget(name: "fuzz-config", dependencies: ["DisplayModel", "FuzzRunner"], path: "Fuzz/Config"),
    .executableTarget(
      name: "fuzz-control", dependencies: ["DisplayModel", "DisplayService", "DisplaySupport", "FuzzRunner"],
      path: "Fuzz/Control"),
    .executableTarget(
      name: "displayd-bench", dependencies: ["XRig", "CXrandr"], path: "Benchmarks/Harness"),
  ],
  swiftLanguageModes: [.v6]
)
