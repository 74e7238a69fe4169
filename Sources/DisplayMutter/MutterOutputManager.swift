import DisplayModel
import DisplayPorts
import DisplaySupport

/// mutter's displays through `org.gnome.Mutter.DisplayConfig` on the session bus: heads
/// from `GetCurrentState`, a configuration tested with `ApplyMonitorsConfig`'s verify
/// method and applied with its temporary one (nothing is written to `monitors.xml`), and
/// `MonitorsChanged` as the one event, counted on the bus descriptor: nothing wakes while
/// no monitor changes.
public final class MutterOutputManager: OutputManager, ChangeSource {
  static let service = "org.gnome.Mutter.DisplayConfig"
  static let path = "/org/gnome/Mutter/DisplayConfig"

  private let bus: SessionBus
  /// The last state read: what a configuration is planned against.
  public private(set) var state: MutterState?
  private var pending = 0

  public var backendName: String { "mutter" }
  public var serverName: String { "mutter" }

  /// Connects to the session bus and follows `MonitorsChanged`; fails, saying why, where
  /// mutter's DisplayConfig is not on the bus.
  public init(bus: SessionBus? = nil) throws(DisplayError) {
    if let bus {
      self.bus = bus
    } else {
      do throws(SessionBus.Failure) {
        self.bus = try SessionBus()
      } catch {
        throw .compositor(display: "mutter", problem: error.description)
      }
    }
    guard self.bus.hasOwner(Self.service) else {
      throw .compositor(display: "mutter", problem: "\(Self.service) is not on the session bus")
    }
    do {
      try self.bus.match(
        "type='signal',sender='\(Self.service)',path='\(Self.path)',interface='\(Self.service)',member='MonitorsChanged'"
      )
    } catch {
      throw .compositor(display: "mutter", problem: error.description)
    }
  }

  /// Reads the state and keeps it for the next configuration.
  public func read() throws(DisplayError) -> MutterState {
    let reply = try call("GetCurrentState")
    do {
      let state = try MutterState(reply: reply)
      self.state = state
      return state
    } catch {
      throw .compositor(display: "mutter", problem: error.description)
    }
  }

  public func heads(probe: Bool) throws(DisplayError) -> HeadSnapshot { try read().heads }

  public func test(_ configuration: OutputConfiguration) throws(DisplayError) -> ApplyResult {
    try send(configuration, .verify)
  }

  public func apply(_ configuration: OutputConfiguration) throws(DisplayError) -> ApplyResult {
    try send(configuration, .temporary)
  }

  private func send(_ configuration: OutputConfiguration, _ method: MutterState.Method) throws(DisplayError)
    -> ApplyResult
  {
    guard let state, UInt64(state.serial) == configuration.generation else { return .stale }
    switch state.arguments(configuration, method: method) {
    case .failure(let refusal): return .refused(refusal)
    case .success(let arguments):
      do {
        _ = try bus.call(Self.service, Self.path, Self.service, "ApplyMonitorsConfig", arguments)
        return .applied
      } catch {
        // mutter says a serial it no longer has is "stale"; anything else is a refusal in its words.
        if error.description.contains("stale") { return .stale }
        return .refused(ApplyRefusal(reason: "mutter: \(error.description)"))
      }
    }
  }

  private func call(_ member: String, _ arguments: [BusValue] = []) throws(DisplayError) -> [BusValue] {
    do {
      return try bus.call(Self.service, Self.path, Self.service, member, arguments)
    } catch {
      throw .compositor(display: "mutter", problem: error.description)
    }
  }

  // MARK: ChangeSource

  public var fileDescriptor: FileDescriptor { bus.fileDescriptor }
  public var queuedEvents: Int { pending }

  public func readAvailable() throws(DisplayError) -> Int {
    guard bus.process() else { throw .connectionLost(display: "the session bus") }
    pending += bus.takeSignals()
    return pending
  }

  public func flush() {}
  public func sync() throws(DisplayError) { _ = try call("GetCurrentState") }
  public func selectChangeEvents() throws(DisplayError) {}

  public func takeChanges(onInputDevice: () -> Void) throws(DisplayError) -> Int {
    defer { pending = 0 }
    return pending
  }
}
