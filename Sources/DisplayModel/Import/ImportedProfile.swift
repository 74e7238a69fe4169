/// A line of another tool's file that the import reports: where it is and what became of it.
public struct ImportNote: Error, Hashable, Sendable, CustomStringConvertible {
  public var file: String
  /// 1-based; nil for the file as a whole.
  public var line: Int?
  public var message: String

  public init(_ file: String, _ line: Int?, _ message: String) {
    (self.file, self.line, self.message) = (file, line, message)
  }

  /// `FILE:LINE: message`.
  public var description: String { file + (line.map { ":\($0)" } ?? "") + ": " + message }
}

/// One output of a profile read from autorandr or kanshi, in displayd's terms.
public struct ImportedOutput: Sendable {
  /// The entry's `match` object, as JSON5 text.
  public var match: String
  public var enabled = true
  public var width: Int?
  public var height: Int?
  public var refresh: String?
  public var x: Int?
  public var y: Int?
  public var rotate = RotateRequest.normal
  public var reflect = ReflectRequest.none
  public var scale = 1.0
  public var primary = false
  /// X output property name → value, in the order read.
  public var properties: [(name: String, value: PropertyValue)] = []

  public init(match: String) { self.match = match }

  /// `{ match: {...}, mode: "WxH@R", position: "X,Y", ... }`, or `{ match: {...}, enabled: false }`.
  public var text: String {
    var fields = ["match: " + match]
    guard enabled else { return "{ " + (fields + ["enabled: false"]).joined(separator: ", ") + " }" }
    if let width, let height {
      fields.append("mode: " + ProfileSave.quoted("\(width)x\(height)" + (refresh.map { "@" + $0 } ?? "")))
    }
    if let x, let y { fields.append("position: " + ProfileSave.quoted("\(x),\(y)")) }
    if rotate != .normal { fields.append("rotate: " + ProfileSave.quoted(rotate.rawValue)) }
    if reflect != .none { fields.append("reflect: " + ProfileSave.quoted(reflect.rawValue)) }
    if scale != 1 { fields.append("scale: \(scale)") }
    if primary { fields.append("primary: true") }
    fields += ProfileSave.propertiesField(properties)
    return "{ " + fields.joined(separator: ", ") + " }"
  }
}

/// A profile read from another tool.
public struct ImportedProfile: Sendable {
  public var name: String
  public var outputs: [ImportedOutput]

  public init(name: String, outputs: [ImportedOutput]) { (self.name, self.outputs) = (name, outputs) }

  /// The profile as one JSON5 object.
  public var object: String {
    ProfileSave.object(name: name, outputs: outputs.map(\.text))
  }

  /// The object followed by a comma: an element of `profiles: [ ... ]`.
  public var text: String { object + "," }
}

/// What one import gives: the profiles read, the notes (lines ignored or changed), and the
/// profiles that could not be read, each with why.
public struct ImportResult: Sendable {
  public var profiles: [ImportedProfile] = []
  public var notes: [ImportNote] = []
  public var broken: [ImportNote] = []
  public init() {}
}

extension ImportedOutput {
  /// The displayd scale for a uniform scale factor, nil when outside what a profile takes.
  /// A place written `X<separator>Y` (autorandr's `XxY`, kanshi's `X,Y`), each within X's
  /// INT16 coordinates; nil otherwise.
  static func position(_ text: Substring, separator: Character) -> (x: Int, y: Int)? {
    let xy = text.split(separator: separator, omittingEmptySubsequences: false)
    guard xy.count == 2, let x = Int(xy[0]), let y = Int(xy[1]), (-32767...32767).contains(x),
      (-32767...32767).contains(y)
    else { return nil }
    return (x, y)
  }

  static func scale(_ s: Double) -> Double? {
    guard s.isFinite, ProfileOutput.scales.contains(s) else { return nil }
    // Rounded so that 1/1.5 prints as 0.666667 rather than 17 digits.
    return (s * 1_000_000).rounded() / 1_000_000
  }
}
