/// The X resource database of the root window's `RESOURCE_MANAGER` property, as `xrdb`
/// writes it: one `name:\tvalue` entry a line, where a line ending in an odd number of
/// backslashes goes on on the next (a long or multi-line value). Entries are edited as
/// `xrdb -merge` does one: in place, every other byte kept, order kept. Pure.
public enum ResourceDatabase {
  /// The name applications read the desktop's resolution from (Xft, Qt, GTK without XSETTINGS).
  public static let xftDPI = "Xft.dpi"

  /// The entry `name:\tvalue`, as `xrdb -query` prints it.
  public static func entry(_ name: String, _ value: String) -> [UInt8] {
    Array(name.utf8) + [UInt8(ascii: ":"), 0x09] + Array(value.utf8)
  }

  /// The whole entry of `name` (its lines, without the final newline), the last one when
  /// there are several (the one Xrm keeps); nil when there is none.
  public static func entry(of name: String, in database: [UInt8]) -> [UInt8]? {
    let key = Array(name.utf8)
    return entries(database).last { self.name(of: $0, in: database) == key }.map { Array(database[$0]) }
  }

  /// `database` with the entry of `name` replaced by `entry` where the first one was (later
  /// ones dropped), or appended when there was none; with `entry` nil, every entry of
  /// `name` removed. Every other byte stays as it was (a missing final newline is added
  /// before an appended entry).
  public static func setting(_ name: String, to entry: [UInt8]?, in database: [UInt8]) -> [UInt8] {
    let key = Array(name.utf8)
    var result: [UInt8] = []
    var placed = false
    var start = database.startIndex
    for range in entries(database) {
      guard self.name(of: range, in: database) == key else { continue }
      result += database[start..<range.lowerBound]
      // The entry's newline goes with it, unless the new one takes its place.
      start = range.upperBound < database.endIndex ? range.upperBound + 1 : range.upperBound
      guard !placed, let entry else { continue }
      result += entry
      if range.upperBound < database.endIndex { result.append(0x0A) }
      placed = true
    }
    result += database[start...]
    if !placed, let entry {
      if let last = result.last, last != 0x0A { result.append(0x0A) }
      result += entry + [0x0A]
    }
    return result
  }

  /// The byte ranges of the entries, each without its final newline; a line ending in an odd
  /// number of backslashes continues the entry on the next line.
  static func entries(_ database: [UInt8]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var start = database.startIndex
    var i = start
    var backslashes = 0
    while i < database.endIndex {
      let byte = database[i]
      if byte == 0x0A && backslashes % 2 == 0 {
        result.append(start..<i)
        start = i + 1
      }
      backslashes = byte == UInt8(ascii: "\\") ? backslashes + 1 : 0
      i += 1
    }
    if start < database.endIndex { result.append(start..<database.endIndex) }
    return result
  }

  /// An entry's name: what comes before its first colon, without the spaces and tabs around
  /// it; nil for a line with no colon (a comment or a blank line has no name anyone asks for).
  static func name(of range: Range<Int>, in database: [UInt8]) -> [UInt8]? {
    let line = database[range]
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
    var name = line[line.startIndex..<colon]
    while let first = name.first, first == 0x20 || first == 0x09 { name = name.dropFirst() }
    while let last = name.last, last == 0x20 || last == 0x09 { name = name.dropLast() }
    return Array(name)
  }

  /// `dpi` as `Xft.dpi`'s value: whole dots per inch (Qt reads an integer), within 1...9999.
  public static func value(dpi: Double) -> String {
    guard dpi.isFinite else { return "96" }
    return String(Int(min(max(dpi.rounded(), 1), 9999)))
  }
}
