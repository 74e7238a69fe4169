import DisplayModel
import DisplayMutter
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// mutter's DisplayConfig as the GNOME backend's output manager, against the real mutter 43
/// (headless, virtual monitors, its own session bus): heads read from `GetCurrentState`,
/// configurations verified and applied with `ApplyMonitorsConfig`, `MonitorsChanged` heard
/// on the bus descriptor.
extension XServerTests {
  @Suite struct MutterDisplayConfig {
    /// The output manager on `mutter`'s bus, once DisplayConfig answers there.
    static func manager(_ mutter: MutterWayland) throws -> MutterOutputManager {
      var made: MutterOutputManager?
      _ = eventually(within: 10) {
        made = try? MutterOutputManager(bus: SessionBus(address: mutter.bus.address))
        return made != nil
      }
      return try #require(made, "DisplayConfig never answered on \(mutter.bus.address)")
    }

    /// Waits, on the bus descriptor, for `MonitorsChanged`.
    static func awaitChange(_ manager: MutterOutputManager) throws -> Bool {
      try eventually(within: 5) {
        var fds = pollfd(fd: manager.fileDescriptor.rawValue, events: Int16(POLLIN), revents: 0)
        _ = poll(&fds, 1, 100)
        return try manager.readAvailable() > 0
      }
    }

    @Test func everyMonitorIsAHeadWithItsConnectorIdentityModeAndPlace() throws {
      let mutter = try MutterWayland(monitors: ["1280x720", "1024x768"])
      let heads = try Self.manager(mutter).heads(probe: false)
      #expect(heads.heads.map(\.name) == ["Meta-0", "Meta-1"])
      let sizes = heads.heads.map { $0.mode.map { "\($0.width)x\($0.height)" } }
      #expect(sizes == ["1280x720", "1024x768"])
      #expect(heads.heads.allSatisfy { $0.enabled && $0.connected && $0.make == "MetaVendor" })
      #expect(heads.heads.map(\.x).sorted() == [0, 1280], "side by side: \(heads.heads.map(\.rect))")
      #expect(heads.primary != nil)
      #expect(heads.generation > 0)
    }

    /// The verify method changes nothing; the temporary one moves the monitors, and the
    /// change is told on the bus.
    @Test func aVerifiedConfigurationChangesNothingAndAnAppliedOneMovesTheMonitors() throws {
      let mutter = try MutterWayland(monitors: ["1280x720", "1024x768"])
      let manager = try Self.manager(mutter)
      let before = try manager.heads(probe: false)
      let swapped = OutputConfiguration(
        generation: before.generation,
        heads: [
          HeadConfiguration(name: "Meta-1", enabled: true, x: 0, y: 0),
          HeadConfiguration(name: "Meta-0", enabled: true, x: 1024, y: 0),
        ], primary: "Meta-1")
      #expect(try manager.test(swapped) == .applied)
      #expect(try manager.heads(probe: false).heads.map(\.x) == before.heads.map(\.x), "verify moved something")
      #expect(try manager.apply(swapped) == .applied)
      #expect(try Self.awaitChange(manager), "no MonitorsChanged after the apply")
      let after = try manager.heads(probe: false)
      #expect(after.heads.map(\.x) == [1024, 0])
      #expect(after.primary == "Meta-1")
    }

    /// A configuration planned from a read that is not the last is stale and never reaches
    /// mutter (whose serial moves on hot-plugs, not on applies); one mutter refuses (monitors
    /// that do not touch) is refused in mutter's words and changes nothing.
    @Test func anOlderReadIsStaleAndARefusalSaysWhatMutterSaid() throws {
      let mutter = try MutterWayland(monitors: ["1280x720", "1024x768"])
      let manager = try Self.manager(mutter)
      let before = try manager.heads(probe: false)
      let apart = OutputConfiguration(
        generation: before.generation,
        heads: [
          HeadConfiguration(name: "Meta-0", enabled: true, x: 0, y: 0),
          HeadConfiguration(name: "Meta-1", enabled: true, x: 5000, y: 0),
        ])
      guard case .refused(let refusal) = try manager.apply(apart) else {
        Issue.record("mutter took monitors that do not touch")
        return
      }
      #expect(refusal.reason.hasPrefix("mutter: "), "\(refusal)")
      let older = OutputConfiguration(
        generation: before.generation &+ 1, heads: [HeadConfiguration(name: "Meta-1", enabled: true, x: 0, y: 720)])
      #expect(try manager.apply(older) == .stale)
      #expect(try manager.heads(probe: false).heads.map(\.rect) == before.heads.map(\.rect))
    }

    /// Nothing arrives on the bus while no monitor changes: the daemon's `poll()` sleeps.
    @Test func theBusIsQuietWhileNothingChanges() throws {
      let mutter = try MutterWayland(monitors: ["1280x720"])
      let manager = try Self.manager(mutter)
      _ = try manager.heads(probe: false)
      var fds = pollfd(fd: manager.fileDescriptor.rawValue, events: Int16(POLLIN), revents: 0)
      _ = poll(&fds, 1, 300)
      #expect(try manager.readAvailable() == 0)
    }
  }
}
