import DisplayModel
import DisplayService
import DisplaySupport

/// Renderings of hot-plug events for `displayd watch`.
public enum EventReport {
  /// `TIME EVENT OUTPUT [GEOMETRY MODE]`.
  public static func text(_ event: HeadEvent, time: String = timestampNow()) -> String {
    printable(time + " " + event.summary)
  }

  /// The same line, of an event record received from the daemon.
  public static func text(_ record: EventRecord) -> String {
    var words = [record.time, record.event, record.output]
    if let crtc = record.state.crtc { words.append(crtc.text) }
    if let mode = record.state.currentMode {
      words.append("\(mode.name)@" + fixed(mode.refreshHz, places: 2) + (mode.interlaced ? "i" : ""))
    }
    if let s = record.graceSeconds { words.append("grace \(s) s") }
    return printable(words.joined(separator: " "))
  }
}
