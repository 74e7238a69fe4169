import DisplayModel
import DisplayService
import DisplaySupport

/// Text and JSON renderings of the heads for `displayd outputs` and `displayd modes`.
public enum HeadReport {
  // MARK: JSON

  /// `outputs --json` of the heads a backend reads: their screen (the lit heads' bounds
  /// where the backend states none) and one record a head, in the snapshot's order.
  public static func outputsJSON(_ snapshot: HeadSnapshot) -> JSON {
    let s = snapshot.screen ?? snapshot.litBounds
    return .object([
      ("screen", screenJSON(s)),
      ("outputs", .array(snapshot.heads.map { JSON.record(OutputRecord($0, in: snapshot)) })),
    ])
  }

  static func screenJSON(_ s: ScreenSize) -> JSON {
    .object([
      ("width", .int(s.width)), ("height", .int(s.height)),
      ("min_width", .int(s.minWidth)), ("min_height", .int(s.minHeight)),
      ("max_width", .int(s.maxWidth)), ("max_height", .int(s.maxHeight)),
    ])
  }

  /// `modes --json` of `heads`: each one's modes as the wire lists them (preferred first),
  /// the one shown and the preferred ones marked as their server marks them (by its mode
  /// ids, which a server may list twice).
  public static func modesJSON(_ heads: [Head]) -> JSON {
    .object([
      (
        "outputs",
        .array(
          heads.map { head in
            let (order, ids) = HeadWireIDs.modeIDs(head)
            let preferredIDs = preferredIDs(head)
            let records = order.map { index in
              let mode = head.modes[index]
              let bridgeID = ids[index] ?? ModeID(rawValue: 0)
              var record = ModeRecord(mode, bridgeID: bridgeID, current: shows(head, index))
              record.preferred = preferred(head, index, preferredIDs)
              return JSON.record(record)
            }
            return .object([
              ("name", .string(head.name)), ("connected", .bool(head.connected)), ("modes", .array(records)),
            ])
          })
      )
    ])
  }

  /// Whether `head` shows the mode at `index`: while lit, its current mode, or one the
  /// server gives the same id.
  static func shows(_ head: Head, _ index: Int) -> Bool {
    guard head.rect != nil, let current = head.currentMode else { return false }
    guard let id = head.modes[index].serverID, head.modes.indices.contains(current) else { return index == current }
    return head.modes[current].serverID == id
  }

  /// Whether the mode at `index`, or one the server gives the same id, is preferred;
  /// `preferredIDs` is `preferredIDs(head)`, made once a head: a server may list tens of
  /// thousands of modes, and a search of them for each would take minutes.
  static func preferred(_ head: Head, _ index: Int, _ preferredIDs: Set<UInt64>) -> Bool {
    guard let id = head.modes[index].serverID else { return head.modes[index].preferred }
    return preferredIDs.contains(id)
  }

  /// The server's ids of the head's preferred modes.
  static func preferredIDs(_ head: Head) -> Set<UInt64> {
    Set(head.modes.lazy.filter(\.preferred).compactMap(\.serverID))
  }
}

func pad(_ s: String, _ width: Int) -> String { s + String(repeating: " ", count: max(0, width - s.count)) }
func padLeft(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }
