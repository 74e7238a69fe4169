import DisplayKit
import DisplayModel
import DisplayService
import DisplayX11
import Foundation
import Testing
import XRig

extension XServerTests {
  @Suite struct MonitorIdentity {
    @Test func injectedEDIDShowsAsIdentityEverywhere() throws {
      let file = fixtureFolder + "/asus_aus27d1_0d64f5ca0b43.bin"
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      let watch = try WatchProcess(display: server.display)

      let connection = try XConnection(name: server.display)
      let output = try #require(try connection.readTopology().output(named: "VNC-1"))
      try connection.setEDID(bytes, on: output.id)
      #expect(try watch.next("edid-changed", "VNC-1") != nil, "edid-changed within 1 s")

      // The EDID as xrandr --verbose shows it, read independently.
      let verbose = try server.must(["xrandr", "--verbose"])
      let hex = bytes.prefix(16).map { String(format: "%02x", $0) }.joined()
      #expect(verbose.contains(hex))

      let outputs = try jsonObject(try displayd(["outputs", "--json", "--display", server.display]).out)
      let list = try #require(outputs["outputs"] as? [[String: Any]])
      let vnc1 = try #require(list.first { $0["name"] as? String == "VNC-1" })
      let identity = try #require(vnc1["identity"] as? [String: Any])
      let reference = try #require(
        try referenceRecords(fixtureFolder + "/expected.json").first {
          $0["file"] as? String == "asus_aus27d1_0d64f5ca0b43.bin"
        })
      #expect(mismatches(identity, reference, ambiguous: []).isEmpty)
      #expect(identity["manufacturer"] as? String == "AUS")
      #expect(list.first { $0["name"] as? String == "VNC-0" }?["identity"] is NSNull)

      let fromOutput = try displayd(["edid", "--json", "--output", "VNC-1", "--display", server.display])
      let fromFile = try displayd(["edid", "--json", file])
      #expect(fromOutput.status == 0 && fromFile.status == 0)
      // One serializer prints both, so the lines are equal but for the "file" value.
      #expect(try jsonObject(fromOutput.out)["file"] as? String == "VNC-1")
      let json = { (s: String, f: String) in s.replacingOccurrences(of: "{\"file\":\"\(f)\",", with: "{") }
      #expect(json(fromOutput.out, "VNC-1") == json(fromFile.out, file))

      let text = try displayd(["outputs", "--display", server.display]).out
      #expect(text.contains("VNC-1 connected") && text.contains("[AUS \"VA279\""), "\(text)")
    }

    @Test func edidOfAnOutputWithoutOneIsAClearFailure() throws {
      let server = try TestXServer.vnc()
      let r = try displayd(["edid", "--output", "VNC-0", "--display", server.display])
      #expect(r.status == 1 && r.err.contains("VNC-0 has no EDID"))
    }
  }
}
