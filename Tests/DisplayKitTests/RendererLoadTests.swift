import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// The placeholder's renderer (cairo, pango and what they pull in: glib, harfbuzz, freetype,
/// about 5 MB resident) is loaded with dlopen when a picture is first drawn: a daemon whose
/// monitors show nothing or a mirror never maps it.
extension XServerTests {
  @Suite struct RendererLoad {
    /// The shared objects mapped in process `pid` whose path contains one of `names`. Read
    /// line by line: Foundation's String(contentsOfFile:) stops /proc/PID/maps after 4 KB.
    static func mapped(_ names: [String], pid: pid_t) throws -> Set<String> {
      guard let f = fopen("/proc/\(pid)/maps", "r") else { throw RigError("no maps for \(pid)") }
      defer { fclose(f) }
      var buffer = [CChar](repeating: 0, count: 4096)
      var (found, stack) = (Set<String>(), false)
      while fgets(&buffer, Int32(buffer.count), f) != nil {
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for name in names where line.contains("/\(name)") { found.insert(name) }
        stack = stack || line.contains("[stack]")
      }
      // The stack is near the end of the list: seen, the whole list was read.
      guard stack else { throw RigError("maps read short") }
      return found
    }

    static let renderer = [
      "libpango-1.0.so", "libpangocairo-1.0.so", "libcairo.so", "libharfbuzz.so", "libfreetype.so",
    ]

    /// A daemon on Xvnc with `config`, started with VNC-1 plugged beside the main monitor,
    /// then VNC-2 plugged too; returns the renderer's libraries mapped once it handled both.
    func rendererMapped(_ config: String, windows: Int) throws -> Set<String> {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      try vnc.setLayout(VNCClient.row([(main, 1024, 768), (main + 1, 800, 600)]))
      let daemon = try DaemonProcess(display: server.display, config: config)
      let x = try XInspector(server.display)
      try vnc.setLayout(VNCClient.row([(main, 1024, 768), (main + 1, 800, 600), (main + 2, 800, 600)]))
      #expect(daemon.waitFor("reconcile 2", timeout: 5) != nil, "\(daemon.log.suffix(5))")
      #expect(
        eventually(within: 5) { x.displaydWindows().filter(\.mapped).count == windows }, "\(daemon.log.suffix(5))")
      daemon.settle(quiet: 0.2)
      #expect(daemon.isRunning)
      return try Self.mapped(Self.renderer, pid: daemon.child.pid)
    }

    @Test func contentNoneNeverLoadsTheRenderer() throws {
      #expect(try rendererMapped("{ defaults: { content: 'none' } }", windows: 0).isEmpty)
    }

    @Test func mirrorContentNeverLoadsTheRenderer() throws {
      #expect(try rendererMapped("{ defaults: { content: 'mirror' } }", windows: 2).isEmpty)
    }

    /// A reload to a config that shows the placeholder loads the renderer and draws.
    @Test func aReloadToThePlaceholderLoadsTheRendererAndDraws() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      try vnc.setLayout(VNCClient.row([(main, 1024, 768), (main + 1, 800, 600)]))
      let daemon = try DaemonProcess(display: server.display, config: "{ defaults: { content: 'none' } }")
      let x = try XInspector(server.display)
      #expect(try Self.mapped(Self.renderer, pid: daemon.child.pid).isEmpty)
      try colourConfig.write(toFile: try #require(daemon.configPath), atomically: true, encoding: .utf8)
      daemon.child.signal(SIGHUP)
      let text = eventually(within: 5) { x.row(y: 300, from: 1024, to: 1824).contains(foreground) }
      #expect(text, "the placeholder's text drawn after the reload: \(daemon.log.suffix(5))")
      #expect(try Self.mapped(Self.renderer, pid: daemon.child.pid).contains("libpango-1.0.so"))
    }

    /// The check above sees the renderer when it is there: a placeholder loads it.
    @Test func thePlaceholderLoadsTheRenderer() throws {
      let loaded = try rendererMapped("{ defaults: { content: 'placeholder' } }", windows: 2)
      #expect(loaded.isSuperset(of: ["libpango-1.0.so", "libcairo.so"]), "\(loaded)")
    }
  }
}
