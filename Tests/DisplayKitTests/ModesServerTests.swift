import DisplayKit
import DisplayModel
import DisplayService
import DisplayX11
import Foundation
import Testing
import XRig

private struct ModesDoc: Decodable {
  struct Output: Decodable {
    var name: String
    var connected: Bool
    var modes: [Mode]
  }
  struct Mode: Decodable {
    var id: UInt
    var name: String
    var width: Int
    var height: Int
    var refresh_hz: Double
    var current: Bool
    var preferred: Bool
    var interlaced: Bool
    var doublescan: Bool
  }
  var outputs: [Output]
}

extension XServerTests {
  @Suite struct ModesAgainstTheServer {
    /// `displayd modes --json OUTPUT` lists exactly what `xrandr --verbose` reads from the server.
    func expectSameModes(_ server: TestXServer, output: String) throws {
      let r = try displayd(["modes", "--json", output, "--display", server.display])
      #expect(r.status == 0, "stderr: \(r.err)")
      let doc = try JSONDecoder().decode(ModesDoc.self, from: Data(r.out.utf8))
      let ours = try #require(doc.outputs.first { $0.name == output })
      let theirs = try #require(
        parseXrandrVerbose(try server.must(["xrandr", "--verbose"])).first { $0.name == output })
      #expect(ours.modes.count == theirs.modes.count)
      #expect(ours.modes.count > 5)
      for (a, b) in zip(ours.modes, theirs.modes) {
        #expect(a.id == b.id)
        #expect(a.width == b.width && a.height == b.height, "\(a.name) vs \(b.name)")
        #expect(abs(a.refresh_hz - b.refresh) <= 0.0051, "\(a.name): \(a.refresh_hz) vs \(b.refresh)")
        #expect(a.current == b.current, "current flag of \(a.name)")
        #expect(a.preferred == b.preferred, "preferred flag of \(a.name)")
        #expect(a.interlaced == b.interlaced && a.doublescan == b.doublescan)
      }
      #expect(ours.modes.filter(\.current).count == 1)
    }

    @Test func dummyServerModesMatchXrandr() throws {
      let server = try TestXServer.dummy()
      try expectSameModes(server, output: "DUMMY0")
    }

    @Test func vncServerModesMatchXrandr() throws {
      let server = try TestXServer.vnc()
      try expectSameModes(server, output: "VNC-0")
      let r = try displayd(["modes", "--json", "--display", server.display])
      let doc = try JSONDecoder().decode(ModesDoc.self, from: Data(r.out.utf8))
      #expect(doc.outputs.map(\.name) == ["VNC-0"], "without names: the connected outputs")
      #expect(doc.outputs.first?.modes.first { $0.current }?.preferred == true)
    }

    @Test func outputsJSONHasTheDocumentedShape() throws {
      let server = try TestXServer.dummy()
      let r = try displayd(["outputs", "--json", "--display", server.display])
      #expect(r.status == 0)
      let doc = try jsonObject(r.out)
      let screen = try #require(doc["screen"] as? [String: Any])
      for key in ["width", "height", "min_width", "min_height", "max_width", "max_height"] {
        #expect(screen[key] is Int, "screen.\(key)")
      }
      #expect(screen["width"] as? Int == 2048)
      let outputs = try #require(doc["outputs"] as? [[String: Any]])
      #expect(outputs.count == 16)
      let main = try #require(outputs.first)
      #expect(main["name"] as? String == "DUMMY0")
      #expect(main["connected"] as? Bool == true && main["primary"] as? Bool == true && main["main"] as? Bool == true)
      let crtc = try #require(main["crtc"] as? [String: Int])
      #expect(crtc == ["x": 0, "y": 0, "width": 2048, "height": 1536])
      let mode = try #require(main["current_mode"] as? [String: Any])
      #expect(mode["name"] as? String == "2048x1536" && mode["current"] as? Bool == true)
      // The dummy driver's monitors report 0 mm, which is no size: null.
      #expect(main["mm"] is NSNull, "\(String(describing: main["mm"]))")
      let xrandr = try server.must(["xrandr"]).split(separator: "\n").first { $0.hasPrefix("DUMMY0 ") }
      #expect(xrandr?.hasSuffix(" 0mm x 0mm") == true, "\(String(describing: xrandr))")
      #expect(outputs[1]["crtc"] is NSNull && outputs[1]["current_mode"] is NSNull)
      #expect(outputs[1]["connected"] as? Bool == false)
    }

    @Test func probingFindsAnOutputTheDriverConnected() throws {
      let server = try TestXServer.dummy()
      try server.must(["xrandr", "--addmode", "DUMMY1", "1024x768"])
      try server.must(["xrandr", "--output", "DUMMY1", "--mode", "1024x768", "--right-of", "DUMMY0"])
      let r = try displayd(["outputs", "--probe", "--display", server.display])
      #expect(r.out.contains("DUMMY1 connected 1024x768+2048+0 1024x768@"), "\(r.out)")
    }
  }
}
