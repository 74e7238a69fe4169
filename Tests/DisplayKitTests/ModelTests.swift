import DisplayCLI
import DisplayKit
import DisplayModel
import DisplayService
import DisplaySupport
import Testing
import XRig

@Suite struct ModelTests {
  @Test func refreshIsComputedAsXrandrDoes() {
    #expect(abs(TopologyBuilder.m1080.refreshHz - 60.0) < 1e-9)
    var interlaced = TopologyBuilder.m1080
    interlaced.flags = .interlace
    #expect(abs(interlaced.refreshHz - 120.0) < 1e-9)
    var doubled = TopologyBuilder.m1080
    doubled.flags = .doubleScan
    #expect(abs(doubled.refreshHz - 30.0) < 1e-9)
    var broken = TopologyBuilder.m1080
    broken.hTotal = 0
    #expect(broken.refreshHz == 0)
  }

  @Test func mainIsPrimaryElsePanelElseFirstConnected() {
    let names = ["HDMI-1", "eDP-1", "DP-1"]
    let panel = TopologyBuilder.topology(names, on: ["HDMI-1": TopologyBuilder.m1024, "eDP-1": TopologyBuilder.m1080])
    #expect(Config().mainOutput(in: HeadSnapshot(topology: panel))?.name == "eDP-1")
    let primary = TopologyBuilder.topology(
      names, on: ["HDMI-1": TopologyBuilder.m1024, "eDP-1": TopologyBuilder.m1080], primary: "HDMI-1")
    #expect(Config().mainOutput(in: HeadSnapshot(topology: primary))?.name == "HDMI-1")
    let disconnectedPrimary = TopologyBuilder.topology(
      names, on: ["HDMI-1": TopologyBuilder.m1024, "DP-1": TopologyBuilder.m1080], primary: "eDP-1")
    #expect(Config().mainOutput(in: HeadSnapshot(topology: disconnectedPrimary))?.name == "HDMI-1")
    #expect(Config().mainOutput(in: HeadSnapshot(topology: TopologyBuilder.topology(names, on: [:]))) == nil)
  }

  @Test func unknownOutputNameListsTheRealOnes() throws {
    let t = TopologyBuilder.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080])
    #expect(throws: DisplayError.unknownOutput(name: "VGA-9", available: ["eDP-1", "HDMI-1"])) {
      try t.outputs(named: ["VGA-9"])
    }
    #expect(try t.outputs(named: []).map(\.name) == ["eDP-1"])
  }

  @Test func jsonEscapesAndKeepsKeyOrder() {
    let value = JSON.object([
      ("b", .string("a\"b\\c\n\u{01}")), ("a", .array([.int(1), .double(59.94), .double(60), .null, .bool(true)])),
    ])
    #expect(value.serialized() == #"{"b":"a\"b\\c\n\u0001","a":[1,59.94,60.0,null,true]}"#)
  }

  @Test func fixedFormatsLikePrintf() {
    #expect(fixed(59.9345, places: 2) == "59.93")
    #expect(fixed(60, places: 2) == "60.00")
    #expect(fixed(0.005, places: 2) == "0.01")
    #expect(rounded(59.8869, places: 3) == 59.887)
  }
}

@Suite struct ArgumentsTests {
  let spec = CommandSpec(
    name: "modes", usage: "usage: displayd modes", help: "", flags: ["--json"],
    options: ["--display"], maxPositionals: nil)

  @Test func parsesFlagsOptionsAndPositionals() throws {
    let a = try Arguments(["DP-1", "--json", "--display", ":3", "HDMI-1"], spec: spec)
    #expect(a.has("--json"))
    #expect(a["--display"] == ":3")
    #expect(a.positionals == ["DP-1", "HDMI-1"])
    #expect(try Arguments(["--display=:4"], spec: spec)["--display"] == ":4")
  }

  @Test func rejectsUnknownOptionsAndMissingValues() {
    #expect(throws: UsageError.self) { try Arguments(["--jsn"], spec: spec) }
    #expect(throws: UsageError.self) { try Arguments(["--display"], spec: spec) }
    let none = CommandSpec(name: "outputs", usage: "u", help: "")
    #expect(throws: UsageError("unexpected argument 'extra'", usage: "u")) { try Arguments(["extra"], spec: none) }
  }
}
