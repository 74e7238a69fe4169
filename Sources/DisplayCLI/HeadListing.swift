import DisplayModel
import DisplayService
import DisplaySupport

/// How `outputs` and `modes` print a backend's heads, text or JSON, the backend named in the
/// JSON: X's heads as RandR's tools list outputs, a compositor's with each head's identity,
/// scale and transform after its line and the compositor named. The one place the listing
/// depends on the backend.
public struct HeadListing {
  public let backend: DisplayBackend

  public init(_ backend: DisplayBackend) { self.backend = backend }

  /// The compositor as the listing names it; nil on X.
  private var server: String? { backend.kind == .x11 ? nil : backend.layout.manager.serverName }

  /// `outputs`: every head of `snapshot`.
  public func outputs(_ snapshot: HeadSnapshot, json: Bool) -> String {
    guard let server else {
      return json
        ? named(HeadReport.outputsJSON(snapshot)).serialized() + "\n" : HeadReport.outputsText(snapshot)
    }
    return json
      ? named(HeadReport.compositorOutputsJSON(snapshot)).serialized() + "\n" : HeadReport.outputsText(snapshot, server: server)
  }

  /// `modes`: the modes of `heads`, heads of `snapshot`.
  public func modes(_ heads: [Head], in snapshot: HeadSnapshot, json: Bool) -> String {
    if json { return named(HeadReport.modesJSON(heads)).serialized() + "\n" }
    return server == nil ? HeadReport.modesText(heads, in: snapshot) : HeadReport.compositorModesText(heads, snapshot)
  }

  /// A JSON report with the backend (and a compositor) first.
  func named(_ json: JSON) -> JSON {
    var members: [(String, JSON)] = [("backend", .string(backend.kind.rawValue))]
    if let server { members.append(("compositor", .string(server))) }
    return .object(members + json.members)
  }
}
