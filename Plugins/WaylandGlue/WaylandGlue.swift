// The Wayland protocols' C glue, made by wayland-scanner from the XMLs Debian ships
// (libwayland-dev, wayland-protocols, librust-wayland-protocols-dev) as part of every
// `swift build`, so that a fresh clone builds with no step before it and no XML or generated
// file is kept in the project. Per XML, one command writes the private code (`NAME-protocol.c`,
// compiled into the target) and the client header (`include/NAME-client-protocol.h`: SwiftPM
// puts the plugin's `include` on the target's header search path, and on its dependents').
// wayland.xml's interfaces are generated too (as private code), so that nothing links
// libwayland-client: the Wayland backend loads it with dlopen when it is used; its client
// header is libwayland-dev's own (wayland-client-protocol.h).
//
// Each command declares its XML and wayland-scanner as inputs and its two files as outputs:
// a build redoes one only when one of those changed.
//
// WLR_PROTOCOLS, WAYLAND_PROTOCOLS and WAYLAND_XML (the directories of the wlr and the
// upstream protocols, and wayland.xml) override where the XMLs are looked for. They are read
// when SwiftPM plans the build, which it does again only in a new build directory or after
// Package.swift or the package's list of files changed (`touch Package.swift` after setting one).
import Foundation
import PackagePlugin

@main
struct WaylandGlue: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    // Glue made into the target's directory outside the build (as checkouts made it before this
    // plugin) would be compiled along with the plugin's: the link would fail on every interface
    // defined twice.
    let stale = target.directoryURL.appending(path: "generated")
    if FileManager.default.fileExists(atPath: stale.path) {
      throw GlueError(
        "\(stale.path) holds Wayland glue made outside the build (by the former scripts/wayland-glue); "
          + "the WaylandGlue plugin makes it now, and both would be compiled: delete that directory")
    }
    let protocols = Protocols(ProcessInfo.processInfo.environment)
    let xmls: [ProtocolXML]
    switch target.name {
    case "CWayland": xmls = protocols.daemon
    // The test rig's own: a virtual pointer for the seat (the daemon never uses it).
    case "CWaylandRig": xmls = [protocols.virtualPointer]
    default: throw GlueError("no protocol list for target \(target.name)")
    }
    let scanner = try findScanner(ProcessInfo.processInfo.environment["PATH"] ?? "")
    let output = context.pluginWorkDirectoryURL
    return try xmls.map { xml in
      let missing = "\(xml.url.path) is missing: \(xml.package) ships it. \(installHint)"
      guard FileManager.default.fileExists(atPath: xml.url.path) else { throw GlueError(missing) }
      let name = xml.url.deletingPathExtension().lastPathComponent
      let code = output.appending(path: "\(name)-protocol.c")
      let header = xml.clientHeader ? output.appending(path: "include/\(name)-client-protocol.h") : nil
      return .buildCommand(
        displayName: "Generating the Wayland glue of \(name).xml",
        executable: URL(fileURLWithPath: "/bin/sh"),
        // Both files from one command: SwiftPM waits for a command only when a file it compiles
        // is among its outputs, so a command making only a header might never run. The check
        // repeats the plugin's for a build planned before the XML went away.
        arguments: [
          "-c",
          #"[ -f "$1" ] || { echo "WaylandGlue: $4" >&2; exit 1; }; "$0" private-code "$1" "$2" && { [ -z "$3" ] || "$0" client-header "$1" "$3"; }"#,
          scanner.path, xml.url.path, code.path, header?.path ?? "", missing,
        ],
        inputFiles: [xml.url, scanner],
        outputFiles: [code] + (header.map { [$0] } ?? []))
    }
  }
}

let installHint =
  "Install the build's Debian packages: `make deps`, or "
  + "`apt-get install libwayland-bin libwayland-dev wayland-protocols librust-wayland-protocols-dev`"

struct ProtocolXML {
  let url: URL
  /// The Debian package that ships it, for the message when it is missing.
  let package: String
  /// False for wayland.xml, whose client header libwayland-dev ships.
  var clientHeader = true
}

/// Where the XMLs are: Debian 12's paths, or the directories the environment names.
struct Protocols {
  let core: ProtocolXML
  let upstream: URL
  let wlr: URL

  init(_ environment: [String: String]) {
    func path(_ variable: String, _ debian: String) -> String {
      guard let value = environment[variable], !value.isEmpty else { return debian }
      return value
    }
    core = ProtocolXML(
      url: URL(fileURLWithPath: path("WAYLAND_XML", "/usr/share/wayland/wayland.xml")), package: "libwayland-dev",
      clientHeader: false)
    upstream = URL(fileURLWithPath: path("WAYLAND_PROTOCOLS", "/usr/share/wayland-protocols"))
    wlr = URL(
      fileURLWithPath: path(
        "WLR_PROTOCOLS", "/usr/share/cargo/registry/wayland-protocols-0.29.4/wlr-protocols/unstable"))
  }

  private func upstream(_ path: String) -> ProtocolXML {
    ProtocolXML(url: upstream.appending(path: path), package: "wayland-protocols")
  }

  private func wlr(_ name: String) -> ProtocolXML {
    ProtocolXML(url: wlr.appending(path: name), package: "librust-wayland-protocols-dev")
  }

  /// The daemon's: CWayland's.
  var daemon: [ProtocolXML] {
    [
      core, upstream("stable/xdg-shell/xdg-shell.xml"), upstream("stable/viewporter/viewporter.xml"),
      upstream("unstable/xdg-output/xdg-output-unstable-v1.xml"), wlr("wlr-output-management-unstable-v1.xml"),
      wlr("wlr-layer-shell-unstable-v1.xml"), wlr("wlr-screencopy-unstable-v1.xml"),
    ]
  }

  var virtualPointer: ProtocolXML { wlr("wlr-virtual-pointer-unstable-v1.xml") }
}

/// wayland-scanner on the PATH (Debian's is /usr/bin/wayland-scanner, from libwayland-bin).
func findScanner(_ path: String) throws -> URL {
  for directory in path.split(separator: ":").map(String.init) + ["/usr/bin"] {
    let candidate = URL(fileURLWithPath: directory).appending(path: "wayland-scanner")
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
  }
  throw GlueError("no wayland-scanner on the PATH: libwayland-bin ships it. \(installHint)")
}

struct GlueError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = "WaylandGlue: " + description }
}
