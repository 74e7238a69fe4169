import DisplayKit
import DisplayModel
import DisplayPorts
import DisplaySupport
import DisplayWayland
import DisplayX11

/// A display server as the daemon and the commands use it, one value whatever the backend:
/// its name, its events (`ChangeSource`), its layout over the output-management port, its
/// surfaces (made when first asked: a query draws nothing) and its desk facilities. `open`
/// is the one place that makes a backend's ports.
public final class DisplayBackend {
  /// Which backend.
  public enum Kind: String, Sendable {
    case x11
    case wayland

    /// What could not be reached when it cannot be opened.
    public var unreachable: String { self == .x11 ? "no X display reachable" : "no compositor reachable" }
  }

  public let kind: Kind
  /// The display the control socket and the lock are named by: the X display, the
  /// compositor's socket.
  public let display: String
  public let changes: any ChangeSource
  public let layout: OutputManagerLayout
  /// What the server offers beyond the layout (X's resources, properties, pointers, power,
  /// screenshots; a compositor's screenshots), found when first asked: whether an X server
  /// is Xwayland takes a roundtrip a query of its heads does not need.
  public private(set) lazy var facilities: DisplayFacilities = makeFacilities()
  private let makeFacilities: () -> DisplayFacilities
  /// The compositor's process name (`sway`); nil on X and where unknown.
  public let compositor: String?
  private let makeSurfaces: () -> any SurfaceHost
  private var made: (any SurfaceHost)?

  private init(
    kind: Kind, display: String, changes: any ChangeSource, layout: OutputManagerLayout,
    facilities: @escaping () -> DisplayFacilities, compositor: String?, surfaces: @escaping () -> any SurfaceHost
  ) {
    (self.kind, self.display, self.changes, self.layout) = (kind, display, changes, layout)
    (makeFacilities, self.compositor, makeSurfaces) = (facilities, compositor, surfaces)
  }

  /// The surfaces on this server, made at the first call.
  public func surfaces() -> any SurfaceHost {
    if let made { return made }
    let host = makeSurfaces()
    made = host
    return host
  }

  /// The backend `kind` on `display` (nil: `$DISPLAY`, `$WAYLAND_DISPLAY`); `log` takes
  /// what the backend says of itself. On X the layout goes through the RandR output manager;
  /// on a compositor through wlr-output-management, its surfaces on the same socket.
  public static func open(_ kind: Kind, display: String?, log: Logger) throws(DisplayError) -> DisplayBackend {
    switch kind {
    case .x11:
      let connection = try XConnection(name: display)
      return DisplayBackend(
        kind: .x11, display: connection.name, changes: connection, layout: OutputManagerLayout(connection),
        facilities: { connection.facilities }, compositor: nil
      ) { XSurfaces(connection, log: log) }
    case .wayland:
      let server = try WaylandDisplayServer(socket: display, log: log)
      log.info("backend wayland: compositor \(server.compositor.isEmpty ? "unknown" : server.compositor)")
      return DisplayBackend(
        kind: .wayland, display: server.name, changes: server, layout: server.layout,
        facilities: { DisplayFacilities(screenshots: server.surfaces) },
        compositor: server.compositor.isEmpty ? nil : server.compositor
      ) { server.surfaces }
    }
  }

  /// How a person is told what is watched: `display :1`, `Wayland compositor wayland-1 (sway)`.
  public var description: String {
    switch kind {
    case .x11: "display \(display)"
    case .wayland: "Wayland compositor \(layout.manager.serverName)"
    }
  }

  /// What `status` says of the backend: its name, the compositor, and on Wayland the count
  /// of objects the daemon holds (for leak checks).
  public var service: ServiceBackend {
    ServiceBackend(
      name: kind.rawValue, compositor: compositor,
      objects: kind == .wayland ? { WaylandSurfaces.objectsOnThisThread } : nil)
  }
}
