import DisplayKit
import DisplayModel
import DisplayService
import DisplayX11
import Foundation
import Testing
import XRig

/// Every test that talks to an X server runs inside this suite, one at a time: Xlib's error
/// handlers are process-wide and the machines have two cores.
@Suite(.serialized) struct XServerTests {}

/// Builders for topologies in unit tests.
enum TopologyBuilder {
  static let m1080 = Mode(
    id: ModeID(rawValue: 1), name: "1920x1080", width: 1920, height: 1080,
    dotClock: 148_500_000, hTotal: 2200, vTotal: 1125)
  static let m1024 = Mode(
    id: ModeID(rawValue: 2), name: "1280x1024", width: 1280, height: 1024,
    dotClock: 108_000_000, hTotal: 1688, vTotal: 1066)
  static let m768 = Mode(
    id: ModeID(rawValue: 3), name: "1024x768", width: 1024, height: 768,
    dotClock: 65_000_000, hTotal: 1344, vTotal: 806)

  /// Outputs `names`; those in `on` are connected and driven at `mode` in a row.
  static func topology(
    _ names: [String], on: [String: Mode], primary: String? = nil, edid: [String: [UInt8]] = [:]
  ) -> Topology {
    var outputs: [Output] = []
    var crtcs: [Crtc] = []
    var x = 0
    for (i, name) in names.enumerated() {
      let oid = OutputID(rawValue: UInt(100 + i))
      let cid = CrtcID(rawValue: UInt(200 + i))
      var output = Output(
        id: oid, name: name, connection: .disconnected, modes: [m1080.id, m1024.id, m768.id],
        preferredCount: 1, possibleCrtcs: [cid])
      var crtc = Crtc(id: cid, possibleOutputs: [oid])
      if let mode = on[name] {
        output.connection = .connected
        output.crtc = cid
        output.edid = edid[name]
        crtc = Crtc(
          id: cid, x: x, y: 0, width: mode.width, height: mode.height, mode: mode.id,
          outputs: [oid], possibleOutputs: [oid])
        x += mode.width
      }
      outputs.append(output)
      crtcs.append(crtc)
    }
    return Topology(
      screen: ScreenSize(
        width: max(x, 320), height: 1080, minWidth: 320, minHeight: 200, maxWidth: 16384, maxHeight: 16384),
      outputs: outputs, crtcs: crtcs, modes: [m1080.id: m1080, m1024.id: m1024, m768.id: m768],
      primary: primary.flatMap { p in outputs.first { $0.name == p }?.id })
  }
}

/// Parses one line of JSON into a dictionary.
func jsonObject(_ line: String) throws -> [String: Any] {
  let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
  return try #require(value as? [String: Any], "not a JSON object: \(line)")
}

/// The folder of shared EDIDs beside the project, nil when absent.
let sharedEDIDFolder: String? = {
  var url = URL(fileURLWithPath: #filePath)
  for _ in 0..<3 { url.deleteLastPathComponent() }
  let path = url.deletingLastPathComponent().appendingPathComponent("shared/edid").path
  return FileManager.default.fileExists(atPath: path + "/expected.json") ? path : nil
}()

/// The text of a file of the repository, by its path from the repository's root (the
/// documentation pages whose config examples the tests load).
func repositoryFile(_ path: String) throws -> String {
  var url = URL(fileURLWithPath: #filePath)
  for _ in 0..<3 { url.deleteLastPathComponent() }
  return try String(contentsOf: url.appendingPathComponent(path), encoding: .utf8)
}

/// The project's own EDID fixtures.
let fixtureFolder: String = {
  var url = URL(fileURLWithPath: #filePath)
  url.deleteLastPathComponent()
  return url.appendingPathComponent("Fixtures/edid").path
}()
