import DisplayKit

/// Renderings of topology events for `displayd watch`.
public enum EventReport {
  /// `TIME EVENT OUTPUT [GEOMETRY MODE]`.
  public static func text(_ event: TopologyEvent, time: String = timestampNow()) -> String {
    time + " " + event.summary
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
