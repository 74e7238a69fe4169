import DisplayKit
import DisplayModel
import DisplayPorts
import DisplaySupport
import DisplayWayland

/// The daemon's display server on a wlroots compositor: the layout through the output
/// manager (`OutputManagerLayout`: heads through the bridge, plans tested, then applied),
/// and one socket shared with the surfaces (`WaylandSurfaces`), so one poll and one dispatch
/// serve both. Every output manager `done` counts as a topology change. It has none of the
/// X desk's facilities (DPMS, resources, XSETTINGS, output properties, touch matrices: its
/// daemon gets an empty `DisplayFacilities`), and made modes answer as a server without them.
public final class WaylandDisplayServer: ChangeSource {
  public let outputs: WaylandOutputManager
  public let surfaces: WaylandSurfaces
  /// The layout half: snapshots and plans through `outputs`.
  public let layout: OutputManagerLayout
  private var changes = 0

  /// A compositor's layout has no maximum the planner must keep within: a screen as large as
  /// the protocol's positions can say.
  static let desk = OutputManagerLayout.Desk(
    server: "the compositor", maxWidth: Int(Int16.max), maxHeight: Int(Int16.max))

  /// The compositor at `socket` (default `$WAYLAND_DISPLAY`): its surfaces and its output
  /// manager on one connection; `vendors`: the PNP ids a head's make stands for (hwdata's
  /// `pnp.ids`, read at run time for the makes the heads show).
  public init(socket: String?, log: Logger, vendors: PNPVendorTable = PNPVendorTable()) throws(DisplayError) {
    surfaces = try WaylandSurfaces(socket: socket, managingOutputs: true)
    outputs = try WaylandOutputManager(sharing: surfaces)
    layout = OutputManagerLayout(
      outputs, desk: Self.desk, name: outputs.socketName, vendors: { vendors.vendors(for: $0) }
    ) {
      log.warning("compositor: " + $0)
    }
    outputs.changed = { [unowned self] in self.changes += 1 }
  }

  /// The socket's name (`wayland-1`): what the control socket and the lock are named by.
  public var name: String { outputs.socketName }
  /// The compositor's process name (`sway`); empty when unknown.
  public var compositor: String { outputs.compositorName }

  public var fileDescriptor: FileDescriptor { outputs.fileDescriptor }
  public var queuedEvents: Int { changes }

  public func readAvailable() throws(DisplayError) -> Int {
    try outputs.dispatch()
    try surfaces.dispatch()
    return changes
  }

  // A lost connection shows at the next dispatch, which throws and reaches the daemon.
  public func flush() { try? outputs.flush() }
  public var hasUnsent: Bool { outputs.hasUnsent }
  public func sync() throws(DisplayError) { try outputs.roundtrip() }
  /// The output manager sends its events unasked.
  public func selectChangeEvents() throws(DisplayError) {}

  /// Surface events stay with the surfaces (the daemon takes them from the host). No
  /// roundtrip here for a plugged head's `wl_output`: the plan's own roundtrips bring its name
  /// before the daemon puts a surface on it, and the host asks itself when one has not come.
  public func takeChanges(onInputDevice: () -> Void) throws(DisplayError) -> Int {
    try surfaces.dispatch()
    guard changes > 0 else { return 0 }
    defer { changes = 0 }
    return changes
  }
}
