import CLinux
import DisplayModel
import DisplaySupport

#if canImport(Glibc)
  import Glibc
#endif

/// A connection to the session bus (libsystemd loaded at first use): method calls that wait
/// for their reply, and one signal match counted for the owner's `poll()`. Its one owner of
/// the sd-bus connection closes it when it goes.
public final class SessionBus {
  private let bus: UnsafeMutablePointer<cl_dbus>

  /// Why a bus call failed, in the bus's words.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// Connects to the bus at `address` (nil: the session bus); calls give up after
  /// `timeout` seconds.
  public init(address: String? = nil, timeout: Double = 2) throws(Failure) {
    // Made and checked before it is this bus's, so that a failure frees it once, here.
    let made = UnsafeMutablePointer<cl_dbus>.allocate(capacity: 1)
    made.initialize(to: cl_dbus())
    guard cl_dbus_load(made) == 0 else {
      let why = String(cString: cl_logind_dlerror())
      made.deallocate()
      throw Failure(description: "libsystemd not loaded (\(why))")
    }
    let r = cl_dbus_open(made, address, UInt64(max(0.001, min(timeout, 60)) * 1_000_000))
    guard r >= 0 else {
      cl_dbus_close(made)
      made.deallocate()
      throw Failure(description: "no session bus (\(String(cString: strerror(-r))))")
    }
    bus = made
  }

  deinit {
    cl_dbus_close(bus)
    bus.deallocate()
  }

  /// Calls `member` and returns the reply's values.
  public func call(
    _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [BusValue] = []
  ) throws(Failure) -> [BusValue] {
    var message: OpaquePointer?
    let made = bus.pointee.new_method_call(bus.pointee.sd.bus, &message, destination, path, interface, member)
    guard made >= 0, let message else { throw Failure(description: "\(member): \(describe(errno: made))") }
    defer { _ = bus.pointee.message_unref(message) }
    for argument in arguments where !BusMessage(bus: bus, message: message).append(argument) {
      throw Failure(description: "\(member): an argument the bus refuses")
    }
    var reply: OpaquePointer?
    let size = 512
    var why = [CChar](repeating: 0, count: size)
    let r = cl_dbus_call(bus, message, &reply, &why, size)
    guard r >= 0, let reply else {
      let said = String(cString: why)
      throw Failure(description: said.isEmpty ? "\(member): \(describe(errno: r))" : said)
    }
    defer { _ = bus.pointee.message_unref(reply) }
    guard let values = BusMessage(bus: bus, message: reply).readAll() else {
      throw Failure(description: "\(member): a reply that cannot be read")
    }
    return values
  }

  /// Whether `name` has an owner on the bus.
  public func hasOwner(_ name: String) -> Bool {
    let answer = try? call(
      "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", [.string(name)])
    return answer?.first?.bool == true
  }

  /// Counts the signals `rule` matches from now on (one rule a bus).
  public func match(_ rule: String) throws(Failure) {
    let r = cl_dbus_match(bus, rule)
    guard r >= 0 else { throw Failure(description: "cannot follow signals: \(describe(errno: r))") }
  }

  /// The bus descriptor, for `poll()`.
  public var fileDescriptor: FileDescriptor { FileDescriptor(rawValue: cl_dbus_fd(bus)) }

  /// Processes what arrived; false when the connection is lost.
  public func process() -> Bool { cl_dbus_process(bus) >= 0 }

  /// The matched signals since the last take.
  public func takeSignals() -> Int {
    defer { bus.pointee.signals = 0 }
    return Int(bus.pointee.signals)
  }

  private func describe(errno r: Int32) -> String { String(cString: strerror(-r)) }
}
