import DisplayCLI
import DisplayKit
import DisplayModel
import DisplaySupport
import Foundation
import Testing
import XRig

/// Names from the server or a monitor never reach a terminal raw: one escaping function,
/// used by every text report.
@Suite struct PrintableTests {
  @Test func controlCharactersAreEscapedAndOtherTextKept() {
    #expect(printable("a\nb\tc\rd\u{1b}[31m\u{7f}\u{85}\u{2028}") == "a\\nb\\tc\\rd\\u{1b}[31m\\u{7f}\\u{85}\\u{2028}")
    #expect(printable("DELL U2720Q 你好 é") == "DELL U2720Q 你好 é")
    #expect(printableLines(["one", "t\nwo"]) == "one\nt\\nwo\n")
  }

  /// A mode named `a\nb` on an output named with an escape: each report keeps one line per
  /// thing it lists.
  @Test func reportsShowHostileNamesEscapedOnOneLine() throws {
    var t = TopologyBuilder.topology(["HDMI-1"], on: ["HDMI-1": TopologyBuilder.m1080])
    t.outputs[0].name = "HD\u{1b}[2JMI"
    t.modes[TopologyBuilder.m768.id]?.name = "a\nb"
    let heads = try t.randrHeads()
    let modes = HeadReport.modesText(heads.heads, in: heads)
    #expect(modes.split(separator: "\n").count == 1 + 3, "\(modes)")
    #expect(modes.contains("a\\nb") && modes.contains("HD\\u{1b}[2JMI") && !modes.contains("\u{1b}"))
    let outputs = HeadReport.outputsText(heads)
    #expect(outputs.split(separator: "\n").count == 2 && !outputs.contains("\u{1b}"), "\(outputs)")
    let check = CheckReport.text(config: Config(), snapshot: heads, lid: .open)
    #expect(!check.contains("\u{1b}") && check.contains("HD\\u{1b}[2JMI"), "\(check)")
  }
}

extension XServerTests {
  /// On a real server, any client can name a mode `a\nb` and give a monitor an EDID whose
  /// name holds an escape sequence: `modes`, `outputs` and `edid` print no raw control
  /// character and no forged line.
  @Suite struct HostileNamesOnVNC {
    @Test func aModeNamedWithANewlinePrintsEscapedOnOneLine() throws {
      let server = try TestXServer.vnc()
      let x = try XInspector(server.display)
      let output = try #require(x.outputID(named: "VNC-0"))
      x.createMode(named: "a\nb", width: 640, height: 480, on: output)
      x.setOutputProperty(output, "EDID", try hostileEDID(name: "X\u{1b}[31mY", serial: "S\tT"))
      x.sync()
      for command in [["modes", "VNC-0"], ["outputs"], ["edid", "--output", "VNC-0"]] {
        let r = try displayd(command + ["--display", server.display])
        #expect(r.status == 0, "\(command): \(r.err)")
        let raw = r.out.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7f }
        #expect(!raw, "\(command) printed a raw control character: \(r.out.debugDescription)")
        #expect(!r.out.split(separator: "\n").contains { $0.hasPrefix("b ") || $0 == "b" }, "a forged line: \(r.out)")
      }
      let modes = try displayd(["modes", "VNC-0", "--display", server.display]).out
      #expect(modes.split(separator: "\n").contains { $0.hasPrefix("  a\\nb ") }, "\(modes)")
      // The EDID decoder already gives U+FFFD for a control byte in a descriptor string.
      let outputs = try displayd(["outputs", "--display", server.display]).out
      #expect(outputs.split(separator: "\n").contains { $0.hasPrefix("VNC-0 ") && $0.contains("[31mY") }, "\(outputs)")
    }
  }
}
