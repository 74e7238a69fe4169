import DisplayModel
import DisplaySupport
import FoundationEssentials

/// The control socket's wire format as a pure function of the bytes received, so it can be
/// tested and fuzzed without a socket: JSON lines, each `{"request": NAME}`.
public enum ControlProtocol {
  /// A line (request) longer than this ends the connection.
  public static let maxLine = 64 * 1024
  /// At most this many requests are answered per read; a client sending more is dropped.
  public static let maxRequestsPerRead = 64

  /// One line: a request name, or a line that is not a request object.
  public enum Item: Equatable, Sendable {
    case request(String)
    /// `{"request": "identify", "seconds": N}` (N optional), checked by whoever answers.
    case identify(seconds: Int)
    /// `profile-switch` (with `"name"`, `"layout"` or `"auto": true`) and `profile-cycle`.
    case profileSwitch(SwitchRequest)
    /// `{"request": "apply", "name": NAME}` (no name: the profile the monitors choose).
    case apply(profile: String?)
    case malformed
  }

  /// What a `profile-switch` or `profile-cycle` request asks for.
  public enum SwitchRequest: Equatable, Sendable {
    /// `"name": NAME`: a profile of the config (nil when the request names nothing).
    case profile(String?)
    /// `"layout": NAME`: a built-in layout (checked by whoever answers).
    case layout(String)
    /// `"auto": true`: automatic choice again.
    case automatic
    /// `profile-cycle`: the next matching profile or built-in layout.
    case cycle
    /// More than one of `name`, `layout` and `auto`.
    case ambiguous
  }

  /// Why a client is dropped after the items before it are answered.
  public enum Failure: Error, Equatable, Sendable {
    case lineTooLong
    case tooManyRequests

    public var message: String {
      switch self {
      case .lineTooLong: return "request line longer than \(ControlProtocol.maxLine) bytes"
      case .tooManyRequests: return "too many requests at once (at most \(ControlProtocol.maxRequestsPerRead) per read)"
      }
    }
  }

  /// What a buffer holds: the complete lines' items in order, how many bytes they took (the
  /// rest is an incomplete line, kept for the next read), and a failure that ends the client.
  public struct Batch: Equatable, Sendable {
    public var items: [Item]
    public var consumed: Int
    public var failure: Failure?
  }

  /// Splits `buffer` into lines in one pass (no copying of the rest) and decodes each.
  public static func requests(in buffer: [UInt8], limit: Int = maxRequestsPerRead) -> Batch {
    var items: [Item] = []
    var start = 0
    while let newline = buffer[start...].firstIndex(of: 0x0A) {
      guard newline - start <= maxLine else { return Batch(items: items, consumed: start, failure: .lineTooLong) }
      guard items.count < limit else { return Batch(items: items, consumed: start, failure: .tooManyRequests) }
      items.append(decode(buffer[start..<newline]))
      start = newline + 1
    }
    let failure: Failure? = buffer.count - start > maxLine ? .lineTooLong : nil
    return Batch(items: items, consumed: start, failure: failure)
  }

  private struct RequestLine: Decodable {
    var request: String
    var seconds: Int?
    var name: String?
    var layout: String?
    var auto: Bool?
  }

  /// One line's request, or `.malformed`.
  public static func decode(_ line: ArraySlice<UInt8>) -> Item {
    guard let request = try? JSONDecoder().decode(RequestLine.self, from: Data(line)) else { return .malformed }
    if request.request == "identify" { return .identify(seconds: request.seconds ?? IdentifyDuration.defaultSeconds) }
    if request.request == "profile-switch" { return .profileSwitch(switchRequest(request)) }
    if request.request == "profile-cycle" { return .profileSwitch(.cycle) }
    if request.request == "apply" { return .apply(profile: request.name) }
    return .request(request.request)
  }

  private static func switchRequest(_ line: RequestLine) -> SwitchRequest {
    let given = [line.name != nil, line.layout != nil, line.auto != nil].filter { $0 }.count
    guard given <= 1 else { return .ambiguous }
    if let layout = line.layout { return .layout(layout) }
    if let auto = line.auto { return auto ? .automatic : .profile(nil) }
    return .profile(line.name)
  }

  /// The answer to a line that is not a request. (Computed: a static stored once is reported
  /// as a leak at exit by the fuzzer's LeakSanitizer.)
  public static var malformedAnswer: JSON { error("expected a JSON object like {\"request\": \"status\"}") }

  /// `{"ok": false, "error": message}`.
  public static func error(_ message: String) -> JSON {
    .object([("ok", .bool(false)), ("error", .string(message))])
  }
}
