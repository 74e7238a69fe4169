import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A private system-like D-Bus (`dbus-daemon` with its own config in a temp folder) with
/// python-dbusmock's logind template on it. Point a daemon at it with `environment`.
///
/// The template (python3-dbusmock 0.28) has no `LidClosed`: it is added through the mock's
/// `org.freedesktop.DBus.Mock.AddProperty`, and changed with `UpdateProperties`, which
/// emits `PropertiesChanged` with the new value, as logind does.
public final class MockLogind {
  public let bus: ChildProcess
  public private(set) var mock: ChildProcess?
  /// The bus address, e.g. `unix:path=/tmp/…/system_bus_socket,guid=…`.
  public let address: String
  static let manager = "org.freedesktop.login1.Manager"

  /// `DBUS_SYSTEM_BUS_ADDRESS` for a process that should find this bus.
  public var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": address] }

  /// Starts the bus; with `logind`, the mock with `LidClosed` set to `lidClosed`.
  public init(logind: Bool = true, lidClosed: Bool = false) throws {
    let dir = try makeTempDirectory("displayd-bus")
    let config = dir + "/system.conf"
    try Self.config(socket: dir + "/system_bus_socket").write(toFile: config, atomically: true, encoding: .utf8)
    bus = try ChildProcess(["dbus-daemon", "--config-file=" + config, "--nofork", "--print-address=1"])
    guard let line = bus.readLine(timeout: 5), line.hasPrefix("unix:") else {
      throw RigError("dbus-daemon printed no address: \(bus.drainOutput().err)")
    }
    address = line
    guard logind else { return }
    // The system python: dbusmock is a Debian package, not in a pyenv or venv python.
    mock = try ChildProcess(
      ["/usr/bin/python3", "-m", "dbusmock", "--template", "logind"],
      environment: ["PATH": "/usr/bin:/bin", "DBUS_SYSTEM_BUS_ADDRESS": address])
    let deadline = Deadline(seconds: 10)
    while (try? call("org.freedesktop.DBus.Peer", "Ping", [])) == nil {
      guard !deadline.passed else { throw RigError("the logind mock did not appear on \(address)") }
      _ = pollFDs([], timeoutMs: 20)
    }
    try call("org.freedesktop.DBus.Mock", "AddProperty", ["ssv", Self.manager, "LidClosed", "b", "\(lidClosed)"])
    try call(
      "org.freedesktop.DBus.Mock", "AddMethod",
      ["sssss", "org.displayd.Test", "SetLidQuietly", "b", "", "self.props['\(Self.manager)']['LidClosed'] = args[0]"])
  }

  /// Sets `LidClosed` and emits `PropertiesChanged` with its value.
  public func setLid(closed: Bool) throws {
    try call(
      "org.freedesktop.DBus.Mock", "UpdateProperties", ["sa{sv}", Self.manager, "1", "LidClosed", "b", "\(closed)"])
  }

  /// Sets `LidClosed` without a signal, then emits a `PropertiesChanged` that only names it
  /// as invalidated (no value): a listener has to read it again.
  public func invalidateLid(closed: Bool) throws {
    try call("org.displayd.Test", "SetLidQuietly", ["b", "\(closed)"])
    try emitPropertiesChanged(["sa{sv}as", "3", "s", Self.manager, "a{sv}", "0", "as", "1", "LidClosed"])
  }

  /// Emits logind's `PrepareForSleep(start)`: true before a suspend, false after the resume.
  /// (The template never sends it by itself.)
  public func prepareForSleep(_ start: Bool) throws {
    try call(
      "org.freedesktop.DBus.Mock", "EmitSignal", ["sssav", Self.manager, "PrepareForSleep", "b", "1", "b", "\(start)"])
  }

  /// Emits logind manager's `PrepareForSleep` with `args` as busctl spells the mock's `sav`
  /// (signature, count, typed values), e.g. hostile ones.
  public func emitPrepareForSleep(_ args: [String]) throws {
    try call("org.freedesktop.DBus.Mock", "EmitSignal", ["sssav", Self.manager, "PrepareForSleep"] + args)
  }

  /// Emits `PropertiesChanged` from logind's manager object with `args` as busctl spells
  /// the mock's `sav` (signature, then the count and the typed values), e.g. hostile ones.
  public func emitPropertiesChanged(_ args: [String]) throws {
    try call(
      "org.freedesktop.DBus.Mock", "EmitSignal",
      ["sssav", "org.freedesktop.DBus.Properties", "PropertiesChanged"] + args)
  }

  @discardableResult
  func call(_ interface: String, _ method: String, _ args: [String], path: String = "/org/freedesktop/login1") throws
    -> String
  {
    let r = try runCommand(
      ["busctl", "--address=" + address, "call", "org.freedesktop.login1", path, interface, method] + args,
      environment: ["PATH": "/usr/bin:/bin"], timeout: 5)
    guard r.status == 0 else { throw RigError("busctl \(interface).\(method) \(args): \(r.err)") }
    return r.out
  }

  /// A system-like bus: anyone may own names and call methods, no activation.
  static func config(socket: String) -> String {
    """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig>
      <type>system</type>
      <listen>unix:path=\(socket)</listen>
      <auth>EXTERNAL</auth>
      <policy context="default">
        <allow user="*"/>
        <allow own="*"/>
        <allow send_type="method_call"/>
        <allow send_type="signal"/>
        <allow send_requested_reply="true" send_type="method_return"/>
        <allow send_requested_reply="true" send_type="error"/>
        <allow receive_type="method_call"/>
        <allow receive_type="method_return"/>
        <allow receive_type="error"/>
        <allow receive_type="signal"/>
      </policy>
    </busconfig>
    """
  }
}
