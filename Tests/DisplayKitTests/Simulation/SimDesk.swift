import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayX11

/// Which fakes a simulated world is made of. The same seed draws the same life over either.
enum SimBackend: String, CaseIterable, Sendable {
  /// `FakeDisplayServer`: RandR's outputs, CRTCs and screen, as on X.
  case randr
  /// `FakeOutputManager` through `OutputManagerLayout`: heads and configurations tested,
  /// then applied, as on Wayland.
  case port
}

/// The server half of a simulated world, one per fake: the display server the daemon's
/// layout and change events go to, and the world's side of it (monitors coming and going,
/// the faults of applies). `SimWorld` holds one and is all the simulation sees of it.
protocol SimDesk: TestDisplayServer, TopologyView {
  /// The display's name.
  var name: String { get }
  var facilities: DisplayFacilities { get }
  /// The desk as a snapshot would show it now: what the daemon sees once it looks.
  var topology: Topology { get }
  /// Change events waiting for the daemon (the world's, and the server's answers to the
  /// daemon's own configurations where it sends them).
  var pendingChanges: Int { get set }
  /// DPMS has blanked the screen (a server without the facility ignores it).
  var blanked: Bool { get set }
  /// Whether a monitor going takes its head's surfaces with it (a compositor withdraws the
  /// output: its surfaces are closed); on X the windows stay.
  var withdrawsSurfaces: Bool { get }
  /// `SimScenario.monitors[monitor]` plugged into the `connector`th connector (on one that
  /// holds a monitor: another monitor, a new identity): one change event.
  func plug(_ connector: Int, monitor: Int)
  /// The monitor on the `connector`th connector goes: one change event.
  func unplug(_ connector: Int)
  /// The monitor on the `connector`th connector goes, and the server turns its output off
  /// itself (Xvnc drops the CRTC): one change event.
  func serverUnplug(_ connector: Int)
  /// `SimScenario.monitors[monitor]` plugged into the `connector`th connector, and the server
  /// lights it itself, in the `mode`th of its modes, right of what is lit (`right`) or at the
  /// origin: one change event. What a server does on a replug, not what the daemon asked.
  func serverPlug(_ connector: Int, monitor: Int, mode: Int, right: Bool)
  /// The heads the last read shows connected that the server's events said went since the
  /// read before.
  var reconnected: Set<String> { get }
  /// The `n`th apply from now (1: the next) fails.
  func failApply(_ n: Int)
  func clearFaults()
  /// Applies that reached the server, from the start (answered stale: not).
  var applies: Int { get }
  /// Applies that changed nothing: each a description of what was asked.
  var redundantApplies: [String] { get }
}
