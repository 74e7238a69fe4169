/// Why a configuration was refused: each problem typed, so that the daemon can plan again
/// without what was refused (a head left dark, a scale or a rotation dropped) and log it.
public struct ApplyRefusal: Hashable, Sendable, Error {
  /// One reason a configuration cannot be put in force. `description` is the line a log
  /// gives it, in the words the daemon has always used.
  public enum Problem: Hashable, Sendable, CustomStringConvertible {
    /// The configuration names a head the server does not have; `known` are those it has.
    case unknownHead(String, known: [String])
    /// The head has no mode of the size asked.
    case noMode(head: String, width: Int, height: Int)
    /// The head lists no mode at all, and none was asked.
    case noModes(head: String)
    /// Nothing can drive the head (X: nothing free to light it); the daemon leaves it dark.
    /// `reason` in the backend's words, naming the head.
    case cannotLight(head: String, reason: String)
    /// The head cannot be scaled (X: a scale transform refused, now or before); `reason` in
    /// the backend's words, said after the head's name.
    case transform(head: String, reason: String)
    /// The head cannot be turned or flipped as asked; `reason` in the backend's words
    /// (X: the turn asked and the turns the head can do).
    case rotation(head: String, reason: String)
    /// The heads need a larger desk than the server has (X: its maximum screen within
    /// X's 16-bit coordinates).
    case screenTooLarge(width: Int, height: Int, maxWidth: Int, maxHeight: Int)
    /// It would leave no connected head lit (never a dark desk).
    case dark
    /// A value the server cannot be told (a scale that does not fit, a place out of range, a
    /// custom mode that cannot be made), said whole.
    case invalid(head: String, reason: String)
    /// The primary names no head of the server.
    case unknownPrimary(String)
    /// What the server answered, or any other failure, said whole.
    case failed(String)

    public var description: String {
      switch self {
      case .unknownHead(let name, let known): return "no head \(name) (the server has \(known.joined(separator: ", ")))"
      case .noMode(let head, let width, let height): return "\(head) has no mode \(width)x\(height)"
      case .noModes(let head): return "\(head) lists no mode"
      case .cannotLight(_, let reason): return "\(reason); left dark"
      case .transform(let head, let reason): return "\(head): \(reason)"
      case .rotation(let head, let reason): return "\(head): \(reason)"
      case .screenTooLarge(let width, let height, let maxWidth, let maxHeight):
        return "it needs a \(width)x\(height) screen, more than the server's maximum \(maxWidth)x\(maxHeight)"
      case .dark: return "it would leave no connected output lit"
      case .invalid(let head, let reason): return "\(head): \(reason)"
      case .unknownPrimary(let name): return "primary \(name): no such head"
      case .failed(let text): return text
      }
    }

    /// The head it is about, if it is about one.
    public var head: String? {
      switch self {
      case .noMode(let head, _, _), .noModes(let head), .cannotLight(let head, _), .transform(let head, _),
        .rotation(let head, _), .invalid(let head, _):
        return head
      case .unknownHead(let name, _): return name
      case .screenTooLarge, .dark, .unknownPrimary, .failed: return nil
      }
    }
  }

  public var problems: [Problem]
  /// What a rollback did not restore, as read back; empty when it did.
  public var notRestored: [String]

  public init(problems: [Problem], notRestored: [String] = []) {
    self.problems = problems
    self.notRestored = notRestored
  }

  /// A refusal said in one sentence.
  public init(reason: String, notRestored: [String] = []) {
    self.init(problems: [.failed(reason)], notRestored: notRestored)
  }

  /// Every problem, in order, joined as one log line.
  public var reason: String { problems.map(\.description).joined(separator: "; ") }

  /// Heads that cannot be scaled (X: a scale transform refused).
  public var transformRefused: Set<String> {
    Set(problems.compactMap { if case .transform(let head, _) = $0 { head } else { nil } })
  }

  /// Heads that cannot be turned or flipped as asked.
  public var rotationRefused: Set<String> {
    Set(problems.compactMap { if case .rotation(let head, _) = $0 { head } else { nil } })
  }

  /// Heads nothing can drive.
  public var unlit: Set<String> {
    Set(problems.compactMap { if case .cannotLight(let head, _) = $0 { head } else { nil } })
  }
}

/// What an apply did, for the log and for the daemon's account of it: each lit picture's heads set
/// at the mode the server took (after any fallbacks) and their place, or turned off; those
/// already as asked; and, when it failed part way and was put back, which heads failed and
/// why, and what else went wrong. The desk's size when it changed.
public struct ApplyReport: Hashable, Sendable {
  /// One thing set: heads lit at a mode and place, or turned off.
  public struct Entry: Hashable, Sendable, CustomStringConvertible {
    /// The heads it shows on (several for clones), as the log names them.
    public var heads: [String]
    /// The mode the server took, nil when turned off.
    public var mode: HeadMode?
    /// The mode as logs name it (`1920x1080@60.00`); nil when turned off.
    public var modeLabel: String?
    /// The mode's name on the server (X's `1920x1080`, `displayd-1600x700_60.00` for a
    /// mode displayd makes); nil when turned off or not known.
    public var modeName: String?
    /// The backend's handle for a mode the apply made (or found by its name) for a custom
    /// request, which no snapshot before the apply lists for the head: opaque to the model,
    /// the id the backend's own next snapshot lists the mode under (on X, the mode's id).
    /// Nil for a mode the head listed, and from backends whose snapshots come through the
    /// heads bridge.
    public var madeMode: UInt64?
    public var x: Int
    public var y: Int

    public init(
      heads: [String], mode: HeadMode?, modeLabel: String?, modeName: String? = nil, madeMode: UInt64? = nil,
      x: Int, y: Int
    ) {
      self.heads = heads
      self.mode = mode
      self.modeLabel = modeLabel
      self.modeName = modeName
      self.madeMode = madeMode
      self.x = x
      self.y = y
    }

    /// `DP-1 1920x1080@60.00 at 0,0`, `DP-1 off`: the daemon's words.
    public var description: String {
      let name = heads.joined(separator: ",")
      guard let modeLabel else { return "\(name) off" }
      return "\(name) \(modeLabel) at \(x),\(y)"
    }
  }

  /// Heads the server would not set with any mode asked for them (fallbacks included), or
  /// not turn off: the apply was then put back.
  public struct Failure: Hashable, Sendable, CustomStringConvertible {
    /// The heads (several for clones), as the log names them.
    public var heads: [String]
    /// Whether they were to be lit (false: turned off).
    public var enabled: Bool
    /// The server's answer, said whole (one reason a mode tried).
    public var reason: String

    public init(heads: [String], enabled: Bool, reason: String) {
      self.heads = heads
      self.enabled = enabled
      self.reason = reason
    }

    /// `could not configure DP-1: BadMatch`: the daemon's words.
    public var description: String { "could not configure \(heads.joined(separator: ",")): \(reason)" }
  }

  /// What was set; after a failure, what was set before it (and put back since).
  public var entries: [Entry]
  /// Whether `entries` are in the order the server set them, one after another (X sets
  /// one scan-out after another, every one turned off before any is lit); false when the configuration was
  /// put in force at once.
  public var sequential: Bool
  /// What was already as asked: nothing was sent for it.
  public var unchanged: [Entry]
  /// What the server would not set; the apply was put back.
  public var failed: [Failure]
  /// Failures that are no single head's (X: the screen's size, the primary, a read-back
  /// that differs from what was set, a refused transform), in the backend's words; the apply
  /// was put back.
  public var problems: [String]
  /// The desk's size afterwards, when it changed (X's screen); nil elsewhere.
  public var deskSize: (width: Int, height: Int)? {
    get { deskWidth.flatMap { w in deskHeight.map { (w, $0) } } }
    set { (deskWidth, deskHeight) = (newValue?.width, newValue?.height) }
  }
  private var deskWidth: Int?
  private var deskHeight: Int?
  /// What went wrong without failing the apply (X: a custom mode the server refused, the
  /// head fell back along its modes).
  public var warnings: [String]

  public init(
    entries: [Entry] = [], deskSize: (width: Int, height: Int)? = nil, warnings: [String] = [],
    sequential: Bool = false, unchanged: [Entry] = [], failed: [Failure] = [], problems: [String] = []
  ) {
    self.entries = entries
    self.warnings = warnings
    self.sequential = sequential
    self.unchanged = unchanged
    self.failed = failed
    self.problems = problems
    self.deskSize = deskSize
  }

  /// Whether the apply was sent and put back part way: a head failed, or `problems` say why.
  /// A refusal whose report has neither was refused before anything was set.
  public var rolledBack: Bool { !failed.isEmpty || !problems.isEmpty }

  /// Every head as the configuration asks it, for backends that put in force exactly what
  /// they were asked (no fallbacks).
  public init(asked configuration: OutputConfiguration) {
    self.init(
      entries: configuration.heads.map { head in
        guard head.enabled else { return Entry(heads: [head.name], mode: nil, modeLabel: nil, x: 0, y: 0) }
        var mode: HeadMode?
        switch head.mode {
        case .listed(let width, let height, let refresh)?:
          mode = HeadMode(width: width, height: height, refreshMilliHz: refresh)
        case .custom(let line)?:
          mode = HeadMode(width: line.hDisplay, height: line.vDisplay, refreshMilliHz: 0, custom: true)
        case nil: mode = nil
        }
        let label = mode.map { "\($0.width)x\($0.height)@" + fixed(Double($0.refreshMilliHz) / 1000, places: 2) }
        return Entry(heads: [head.name], mode: mode, modeLabel: label ?? "current mode", x: head.x, y: head.y)
      })
  }

  /// The daemon's line: every set, then the desk's size.
  public var description: String {
    (entries.map(\.description) + [deskSize.map { "screen \($0.width)x\($0.height)" }].compactMap { $0 })
      .joined(separator: ", ")
  }
}
