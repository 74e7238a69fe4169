/// Why a profile does not match the monitors present.
public enum ProfileMismatch: Error, Hashable, Sendable, CustomStringConvertible {
  /// The profile's `lid` condition does not hold.
  case lid(LidState)
  /// No connected output matches this entry (numbered from 1).
  case noOutput(entry: Int, match: String)
  /// Connected outputs no entry matches.
  case leftOver([String])
  /// Each entry matches something, but they cannot each have their own output.
  case noAssignment(entries: Int, outputs: [String])

  public var description: String {
    switch self {
    case .lid(let lid): return "lid is \(lid.rawValue)"
    case .noOutput(let entry, let match): return "no connected output matches entry \(entry) (\(match))"
    case .leftOver(let names): return names.joined(separator: ", ") + (names.count == 1 ? " is" : " are") + " left over"
    case .noAssignment(let entries, let outputs):
      return "the \(entries) entries cannot each take their own output of " + outputs.joined(separator: ", ")
    }
  }
}
