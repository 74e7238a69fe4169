import DisplayModel

extension MutterState {
  /// `ApplyMonitorsConfig`'s method: check only, or put in force until the next login.
  public enum Method: UInt32, Sendable {
    case verify = 0
    case temporary = 1
  }

  /// The arguments of `ApplyMonitorsConfig(u serial, u method, a(iiduba(ssa{sv})), a{sv})`
  /// that put `configuration` in force over this state, or what keeps mutter from taking
  /// it. Heads the configuration does not name keep what they show; a head showing the same
  /// as another (`sameAs`) joins that head's logical monitor (mutter mirrors only monitors
  /// whose modes are the same size); mutter wants exactly one primary: the one asked, else
  /// the one lit now, else the first lit.
  public func arguments(
    _ configuration: OutputConfiguration, method: Method
  ) -> Result<[BusValue], ApplyRefusal> {
    var groups: [(logical: LogicalMonitor, modes: [String])] = []
    var problems: [ApplyRefusal.Problem] = []
    for monitor in monitors {
      let asked = configuration.heads.first { $0.name == monitor.connector }
      switch placement(monitor, asked) {
      case .lit(let logical, let mode):
        let placed = (logical: logical, mode: mode)
        if let sameAs = asked?.sameAs, let group = groups.firstIndex(where: { $0.logical.connectors.contains(sameAs) })
        {
          groups[group].logical.connectors.append(monitor.connector)
          groups[group].modes.append(placed.mode)
        } else {
          groups.append((placed.logical, [placed.mode]))
        }
      case .off: continue
      case .refused(let problem): problems.append(problem)
      }
    }
    let known = monitors.map(\.connector)
    for head in configuration.heads where !known.contains(head.name) {
      problems.append(.unknownHead(head.name, known: known))
    }
    guard problems.isEmpty else { return .failure(ApplyRefusal(problems: problems)) }
    guard !groups.isEmpty else { return .failure(ApplyRefusal(problems: [.dark])) }
    let primary = primaryGroup(groups.map(\.logical), asked: configuration.primary)
    let logical = groups.enumerated().map { index, group in
      BusValue.structure([
        .int32(Int32(group.logical.x)), .int32(Int32(group.logical.y)), .double(group.logical.scale),
        .uint32(UInt32(group.logical.transform.rawValue)), .bool(index == primary),
        .array(
          element: "(ssa{sv})",
          zip(group.logical.connectors, group.modes).map { .structure([.string($0), .string($1), .properties([])]) }),
      ])
    }
    return .success([
      .uint32(serial), .uint32(method.rawValue), .array(element: "(iiduba(ssa{sv}))", logical), .properties([]),
    ])
  }

  /// Where a monitor goes and in which mode.
  private enum Placement {
    case off
    case lit(LogicalMonitor, mode: String)
    case refused(ApplyRefusal.Problem)
  }

  /// Where `monitor` goes: off when it is to be off (or is off and not named).
  private func placement(_ monitor: Monitor, _ asked: HeadConfiguration?) -> Placement {
    guard let asked else {
      guard let lit = logicalMonitor(of: monitor.connector), let mode = monitor.modes.first(where: \.current) else {
        return .off
      }
      let logical = LogicalMonitor(
        x: lit.x, y: lit.y, scale: lit.scale, transform: lit.transform, primary: false, connectors: [monitor.connector])
      return .lit(logical, mode: mode.id)
    }
    guard asked.enabled else { return .off }
    guard let x = Int32(exactly: asked.x), let y = Int32(exactly: asked.y) else {
      return .refused(.invalid(head: asked.name, reason: "a place beyond mutter's 32-bit coordinates"))
    }
    var problem: ApplyRefusal.Problem?
    guard let mode = listedMode(of: monitor, asked.mode, problem: &problem) else {
      return .refused(problem ?? .noModes(head: monitor.connector))
    }
    guard let scale = mutterScale(asked, monitor) else {
      return .refused(.invalid(head: asked.name, reason: "scale \(asked.scale) is not one mutter takes"))
    }
    let logical = LogicalMonitor(
      x: Int(x), y: Int(y), scale: scale, transform: asked.transform, primary: false, connectors: [monitor.connector])
    return .lit(logical, mode: mode.id)
  }

  /// The listed mode `request` asks (any refresh for 0, else the nearest within half a
  /// hertz); the current mode, else the preferred, when it asks none.
  private func listedMode(
    of monitor: Monitor, _ request: HeadModeRequest?, problem: inout ApplyRefusal.Problem?
  ) -> Mode? {
    switch request {
    case nil:
      return monitor.modes.first(where: \.current) ?? monitor.modes.first(where: \.preferred) ?? monitor.modes.first
    case .custom:
      problem = .invalid(head: monitor.connector, reason: "mutter makes no custom modes")
      return nil
    case .listed(let width, let height, let milliHz):
      let sized = monitor.modes.filter { $0.width == width && $0.height == height }
      let wanted = Double(milliHz) / 1000
      let best = sized.min { abs($0.refreshHz - wanted) < abs($1.refreshHz - wanted) }
      guard let best, milliHz == 0 || abs(best.refreshHz - wanted) < 0.5 else {
        problem = .noMode(head: monitor.connector, width: width, height: height)
        return nil
      }
      return milliHz == 0 ? sized[0] : best
    }
  }

  /// mutter's scale for the config's: its reciprocal where mutter lays out by logical size;
  /// where it lays out by modes, only 1 can be asked and the monitor keeps mutter's scale.
  private func mutterScale(_ asked: HeadConfiguration, _ monitor: Monitor) -> Double? {
    guard asked.scale.isFinite, asked.scale > 0 else { return nil }
    guard layoutMode == .logical else {
      return asked.scale == 1 ? logicalMonitor(of: monitor.connector)?.scale ?? 1 : nil
    }
    return 1 / asked.scale
  }

  private func primaryGroup(_ groups: [LogicalMonitor], asked: String?) -> Int {
    if let asked, let index = groups.firstIndex(where: { $0.connectors.contains(asked) }) { return index }
    let now = logicalMonitors.first(where: \.primary)?.connectors ?? []
    return groups.firstIndex { !Set($0.connectors).isDisjoint(with: now) } ?? 0
  }
}
