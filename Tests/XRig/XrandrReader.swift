import Foundation

/// What `xrandr --verbose` says about outputs and modes: an independent reading of the
/// server to check displayd against.
public struct XrandrMode: Equatable {
  public var id: UInt
  public var name: String
  public var width: Int
  public var height: Int
  public var refresh: Double
  public var current: Bool
  public var preferred: Bool
  public var interlaced: Bool
  public var doublescan: Bool
}

public struct XrandrOutput {
  public var name: String
  public var connected: Bool
  public var geometry: String?
  public var modes: [XrandrMode] = []
}

public func parseXrandrVerbose(_ text: String) -> [XrandrOutput] {
  var outputs: [XrandrOutput] = []
  let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  for (i, line) in lines.enumerated() {
    let words = line.split(separator: " ").map(String.init)
    if !line.hasPrefix(" "), !line.hasPrefix("\t"), words.count >= 2,
      ["connected", "disconnected", "unknown"].contains(words[1])
    {
      let geometry = words.dropFirst(2).first { $0.contains("+") && $0.contains("x") }
      outputs.append(XrandrOutput(name: words[0], connected: words[1] == "connected", geometry: geometry))
    } else if line.hasPrefix("  "), !line.hasPrefix("   "), let idWord = words.dropFirst().first,
      idWord.hasPrefix("(0x"), i + 2 < lines.count, !outputs.isEmpty
    {
      let id = UInt(idWord.dropFirst(3).dropLast(), radix: 16) ?? 0
      let h = lines[i + 1].split(separator: " ").map(String.init)
      let v = lines[i + 2].split(separator: " ").map(String.init)
      let hz = v.last.flatMap { Double($0.replacingOccurrences(of: "Hz", with: "")) } ?? 0
      outputs[outputs.count - 1].modes.append(
        XrandrMode(
          id: id, name: words[0], width: Int(h[2]) ?? 0, height: Int(v[2]) ?? 0, refresh: hz,
          current: words.contains("*current"), preferred: words.contains("+preferred"),
          interlaced: words.contains("Interlace"), doublescan: words.contains("DoubleScan")))
    }
  }
  return outputs
}
