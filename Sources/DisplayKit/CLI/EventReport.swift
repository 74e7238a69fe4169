/// Renderings of topology events for `displayd watch`.
public enum EventReport {
  /// `{"event", "output", "time", ...the output's new state}`.
  public static func json(_ event: TopologyEvent, in topology: Topology, time: String = timestampNow()) -> JSON {
    let state = TopologyReport.outputJSON(event.output, in: topology).filter { $0.0 != "name" }
    return .object(
      [("event", .string(event.kind.rawValue)), ("output", .string(event.output.name)), ("time", .string(time))]
        + state)
  }

  /// `TIME EVENT OUTPUT [GEOMETRY MODE]`.
  public static func text(_ event: TopologyEvent, time: String = timestampNow()) -> String {
    var words = [time, event.kind.rawValue, event.output.name]
    if let g = event.geometry { words.append(g.description) }
    if let m = event.mode { words.append(TopologyReport.modeLabel(m)) }
    return words.joined(separator: " ")
  }
}

extension EventReport {
  /// `connected VNC-1 1280x1024+1920+0 1280x1024@60.00`, for logs.
  public static func describe(_ event: TopologyEvent) -> String {
    var words = [event.kind.rawValue, event.output.name]
    if let g = event.geometry { words.append(g.description) }
    if let m = event.mode { words.append(TopologyReport.modeLabel(m)) }
    return words.joined(separator: " ")
  }
}

extension EventReport {
  /// The text line of an event received as JSON from the daemon.
  public static func text(fromJSON e: JSON) -> String {
    func s(_ v: JSON?) -> String? { if case .string(let x)? = v { return x } else { return nil } }
    var words = [s(e["time"]) ?? "", s(e["event"]) ?? "?", s(e["output"]) ?? "?"]
    if let c = e["crtc"], case .object = c, case .int(let w)? = c["width"], case .int(let h)? = c["height"],
      case .int(let x)? = c["x"], case .int(let y)? = c["y"]
    {
      words.append("\(w)x\(h)+\(x)+\(y)")
    }
    if let m = e["current_mode"], let name = s(m["name"]), case .double(let r)? = m["refresh_hz"] {
      words.append("\(name)@" + fixed(r, places: 2))
    }
    return words.joined(separator: " ")
  }
}
