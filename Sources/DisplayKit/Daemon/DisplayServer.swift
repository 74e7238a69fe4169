import DisplayPorts

/// A display server as one object: its events (`ChangeSource`) and its layout
/// (`LayoutServer`) on one connection. The daemon holds the two parts as separate values and
/// uses each for what it needs; this is what the backends and the tests' fakes implement
/// (`XConnection`, `WaylandDisplayServer`, `FakeDisplayServer`, `PortDisplayServer`), and what
/// `Daemon(server:)` and `HeadWatcher(server:)` take. Its surfaces are the `SurfaceHost`
/// port's, and its desk facilities (resources, output properties, pointer devices, power,
/// which a server may lack) `DisplayFacilities`'.
public protocol DisplayServer: ChangeSource, LayoutServer {}
