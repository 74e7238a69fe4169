/// What can go wrong talking to an X server; each case says what failed.
public enum DisplayError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `XOpenDisplay` failed: no server, no permission, or a bad name.
  case cannotOpen(display: String)
  /// The server lacks RandR, or has a version older than `required`.
  case randrMissing(display: String, required: String)
  /// The connection broke while the program ran (the server died or was killed).
  case connectionLost(display: String)
  /// A request failed with an X protocol error.
  case request(XErrorRecord)
  /// An output name that the server does not have.
  case unknownOutput(name: String, available: [String])
  /// A Wayland compositor could not be reached, lacks a protocol, or broke the connection.
  case compositor(display: String, problem: String)

  public var description: String {
    switch self {
    case .cannotOpen(let d): return "cannot open X display '\(d)'"
    case .randrMissing(let d, let r): return "X display '\(d)' lacks RandR \(r) or later"
    case .connectionLost(let d): return "lost the connection to X display '\(d)'"
    case .request(let e): return "X request failed: \(e)"
    case .unknownOutput(let name, let available):
      let list = available.isEmpty ? "none" : available.joined(separator: ", ")
      return "no output named '\(name)' (outputs: \(list))"
    case .compositor(let d, let problem): return "Wayland compositor '\(d)': \(problem)"
    }
  }
}

/// One X protocol error, as the error handler recorded it.
public struct XErrorRecord: Hashable, Sendable, CustomStringConvertible {
  public var errorCode: UInt8
  public var requestCode: UInt8
  public var minorCode: UInt8
  public var resourceID: UInt
  public var serial: UInt
  public var text: String

  public init(
    errorCode: UInt8, requestCode: UInt8, minorCode: UInt8, resourceID: UInt, serial: UInt,
    text: String
  ) {
    self.errorCode = errorCode
    self.requestCode = requestCode
    self.minorCode = minorCode
    self.resourceID = resourceID
    self.serial = serial
    self.text = text
  }

  public var description: String {
    "\(text) (error \(errorCode), request \(requestCode).\(minorCode), resource 0x"
      + String(resourceID, radix: 16) + ")"
  }
}
