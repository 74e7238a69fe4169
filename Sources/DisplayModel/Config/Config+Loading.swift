import FoundationEssentials

/// A configuration that cannot be used: names the file, and the line (syntax) or the key path
/// (a wrong value), and says what was expected.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
  public var file: String
  public var line: Int?
  public var keyPath: String?
  public var message: String

  public init(file: String, line: Int? = nil, keyPath: String? = nil, message: String) {
    self.file = file
    self.line = line
    self.keyPath = keyPath
    self.message = message
  }

  public var description: String {
    var where_ = file
    if let line { where_ += ":\(line)" }
    if let keyPath { where_ += ": \(keyPath)" }
    return "\(where_): \(message)"
  }
}

extension Config {
  /// `$XDG_CONFIG_HOME/displayd/config.json5`, else `~/.config/displayd/config.json5`.
  public static func defaultPath(environment: [String: String]) -> String? {
    if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty { return xdg + "/displayd/config.json5" }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return home + "/.config/displayd/config.json5"
  }

  /// Parses JSON5 text (comments, trailing commas, unquoted keys, single quotes).
  public static func parse(_ bytes: [UInt8], file: String) throws(ConfigError) -> Config {
    // Foundation's JSON5 scanner traps on some invalid UTF-8 (an unquoted key with 0xFF,
    // found by the config fuzzer): refuse it first, naming the line.
    if let bad = firstInvalidUTF8(bytes) {
      throw ConfigError(file: file, line: line(of: bad, in: bytes), message: "syntax error: not valid UTF-8")
    }
    // Its number scanner also traps on a malformed number (`1.5e+`, found by the config
    // fuzzer), so Foundation only ever sees text our own scanner found to be JSON5.
    if let problem = JSON5Locator.firstError(in: bytes) {
      throw ConfigError(
        file: file, line: line(of: problem.offset, in: bytes), message: "syntax error: \(problem.message)")
    }
    let decoder = JSONDecoder()
    decoder.allowsJSON5 = true
    do {
      return try decoder.decode(Config.self, from: Data(bytes))
    } catch let error as DecodingError {
      throw describe(error, bytes: bytes, file: file)
    } catch {
      throw ConfigError(file: file, message: "\(error)")
    }
  }

  static func describe(_ error: DecodingError, bytes: [UInt8], file: String) -> ConfigError {
    switch error {
    case .dataCorrupted(let ctx) where ctx.codingPath.isEmpty:
      // Foundation says only that the text is not JSON5; find where, for the message.
      let problem = JSON5Locator.firstError(in: bytes) ?? .init(offset: 0, message: "not valid JSON5")
      return ConfigError(
        file: file, line: line(of: problem.offset, in: bytes), message: "syntax error: \(problem.message)")
    case .dataCorrupted(let ctx):
      return ConfigError(
        file: file, line: keyLine(ctx.codingPath, bytes), keyPath: keyPath(ctx.codingPath),
        message: ctx.debugDescription)
    case .typeMismatch(let type, let ctx):
      return ConfigError(
        file: file, line: keyLine(ctx.codingPath, bytes), keyPath: keyPath(ctx.codingPath),
        message: "expected \(typeName(type))")
    case .valueNotFound(let type, let ctx):
      return ConfigError(
        file: file, line: keyLine(ctx.codingPath, bytes), keyPath: keyPath(ctx.codingPath),
        message: "expected \(typeName(type)), found null")
    case .keyNotFound(let key, let ctx):
      return ConfigError(file: file, keyPath: keyPath(ctx.codingPath), message: "missing key '\(key.stringValue)'")
    @unknown default:
      return ConfigError(file: file, message: "\(error)")
    }
  }

  /// The line a key path is written on, when it can be found.
  static func keyLine(_ path: [CodingKey], _ bytes: [UInt8]) -> Int? {
    JSON5Locator.offset(of: path, in: bytes).map { line(of: $0, in: bytes) }
  }

  /// `monitors[1].mode`.
  static func keyPath(_ path: [CodingKey]) -> String {
    var text = ""
    for key in path {
      if let i = key.intValue {
        text += "[\(i)]"
      } else {
        text += (text.isEmpty ? "" : ".") + key.stringValue
      }
    }
    return text.isEmpty ? "(top level)" : text
  }

  static func typeName(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: return "a string"
    case is Bool.Type: return "true or false"
    case is Int.Type: return "an integer"
    case is Double.Type: return "a number"
    default: return String(describing: type).hasPrefix("Array") ? "a list" : "an object"
    }
  }

  /// The offset of the first byte that is not part of valid UTF-8, or nil.
  static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var offset = 0
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): offset += UTF8.width(scalar)
      case .emptyInput: return nil
      case .error: return offset
      }
    }
  }

  static func line(of offset: Int, in bytes: [UInt8]) -> Int {
    1 + bytes.prefix(max(0, offset)).filter { $0 == 0x0A }.count
  }
}
