import DisplayModel
import FoundationEssentials

extension Decodable {
  /// Reads one line of the control socket's JSON (Foundation's decoder; unknown keys, such
  /// as an answer's `ok`, are ignored).
  public static func decode(_ line: [UInt8]) throws -> Self {
    try JSONDecoder().decode(Self.self, from: Data(line))
  }
}
