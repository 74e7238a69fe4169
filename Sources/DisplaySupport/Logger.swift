/// Log levels, with their sd-daemon priorities.
public enum LogLevel: Int, Comparable, Sendable, CaseIterable {
  case error = 3
  case warning = 4
  case info = 6
  case debug = 7

  public init?(name: String) {
    switch name {
    case "error": self = .error
    case "warning", "warn": self = .warning
    case "info": self = .info
    case "debug": self = .debug
    default: return nil
    }
  }

  public static func < (a: Self, b: Self) -> Bool { a.rawValue > b.rawValue }
}

/// Writes log lines to standard error: with the `<N>` priority prefix journald understands
/// when it is the reader (`$JOURNAL_STREAM` set), with a level word otherwise. Every message
/// is one line: control characters in it (from output, mode or monitor names any X client
/// can set) are escaped, so no message can forge another line or priority.
public final class Logger {
  public var level: LogLevel
  let journal: Bool
  let sink: (String) -> Void

  public init(level: LogLevel = .info, journal: Bool = false, sink: @escaping (String) -> Void = Console.err) {
    self.level = level
    self.journal = journal
    self.sink = sink
  }

  /// Errors logged so far, shown or not: how `applyOnce` tells a failed apply.
  public private(set) var errors = 0
  /// The last error logged, shown or not.
  public private(set) var lastError: String?

  public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
    let isError = level == .error
    guard level >= self.level || isError else { return }
    let text = Self.escaped(message())
    if isError { (errors, lastError) = (errors + 1, text) }
    guard level >= self.level else { return }
    if journal {
      sink("<\(level.rawValue)>\(text)\n")
    } else {
      let word: String
      switch level {
      case .error: word = "error"
      case .warning: word = "warning"
      case .info: word = "info"
      case .debug: word = "debug"
      }
      sink("displayd[\(word)]: \(text)\n")
    }
  }

  /// `text` as one line: the report's escaping (`printable`).
  public static func escaped(_ text: String) -> String { printable(text) }

  public func error(_ m: @autoclosure () -> String) { log(.error, m()) }
  public func warning(_ m: @autoclosure () -> String) { log(.warning, m()) }
  public func info(_ m: @autoclosure () -> String) { log(.info, m()) }
  public func debug(_ m: @autoclosure () -> String) { log(.debug, m()) }
}
