import DisplayKit
import DisplayModel
import DisplayService
import DisplayX11
import Testing
import XRig

@Suite struct TopologyDiffTests {
  let names = ["eDP-1", "HDMI-1", "DP-1"]

  @Test func identicalSnapshotsGiveNoEvents() {
    let t = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024])
    #expect(TopologyDiff.events(from: t, to: t).isEmpty)
  }

  @Test func plugGivesConnectedWithGeometryAndMode() throws {
    let before = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080])
    let after = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024])
    let events = TopologyDiff.events(from: before, to: after)
    #expect(events.map(\.kind) == [.connected])
    let e = try #require(events.first)
    #expect(e.output.name == "HDMI-1")
    #expect(e.geometry == Rect(x: 1920, y: 0, width: 1280, height: 1024))
    #expect(e.mode?.name == "1280x1024")
  }

  @Test func unplugGivesDisconnected() {
    let before = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024])
    let after = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080])
    let events = TopologyDiff.events(from: before, to: after)
    #expect(events.map(\.kind) == [.disconnected])
    #expect(events.first?.output.name == "HDMI-1")
    #expect(events.first?.geometry == nil)
  }

  @Test func vanishedOutputGivesDisconnected() {
    let before = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080, "DP-1": TopologyBuilder.m1024])
    var after = before
    after.outputs.removeAll { $0.name == "DP-1" }
    #expect(
      TopologyDiff.events(from: before, to: after).map { "\($0.kind.rawValue) \($0.output.name)" } == [
        "disconnected DP-1"
      ])
  }

  @Test func modeChangeAndMoveGiveModeChanged() {
    let before = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024])
    let resized = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m768])
    #expect(TopologyDiff.events(from: before, to: resized).map(\.kind) == [.modeChanged])
    var moved = before
    moved.crtcs[1].y = 56
    let events = TopologyDiff.events(from: before, to: moved)
    #expect(events.map(\.kind) == [.modeChanged])
    #expect(events.first?.geometry?.y == 56)
    var rotated = before
    rotated.crtcs[1].rotation = .left
    #expect(TopologyDiff.events(from: before, to: rotated).map(\.kind) == [.modeChanged])
  }

  @Test func turningOffAConnectedOutputIsAModeChange() {
    let before = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024])
    var after = before
    after.outputs[1].crtc = nil
    after.crtcs[1] = Crtc(id: after.crtcs[1].id)
    let events = TopologyDiff.events(from: before, to: after)
    #expect(events.map(\.kind) == [.modeChanged])
    #expect(events.first?.geometry == nil)
  }

  @Test func primaryChangeNamesTheNewMain() {
    let before = TopologyBuilder.topology(
      names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024], primary: "eDP-1")
    let after = TopologyBuilder.topology(
      names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024], primary: "HDMI-1")
    let events = TopologyDiff.events(from: before, to: after)
    #expect(events.map(\.kind) == [.primaryChanged])
    #expect(events.first?.output.name == "HDMI-1")
  }

  @Test func edidChangeIsReported() {
    let before = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024])
    let after = TopologyBuilder.topology(
      names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024], edid: ["HDMI-1": [1, 2, 3]])
    #expect(
      TopologyDiff.events(from: before, to: after).map { "\($0.kind.rawValue) \($0.output.name)" } == [
        "edid-changed HDMI-1"
      ])
  }

  @Test func severalOutputsChangingAtOnce() {
    let before = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024])
    let after = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m768, "DP-1": TopologyBuilder.m1024])
    let events = TopologyDiff.events(from: before, to: after).map { "\($0.kind.rawValue) \($0.output.name)" }
    #expect(events == ["mode-changed eDP-1", "disconnected HDMI-1", "connected DP-1"])
  }

  @Test func losingTheMainOutputMovesMainAndSaysSo() {
    let before = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024])
    let after = TopologyBuilder.topology(names, on: ["HDMI-1": TopologyBuilder.m1024])
    let events = TopologyDiff.events(from: before, to: after).map { "\($0.kind.rawValue) \($0.output.name)" }
    #expect(events == ["disconnected eDP-1", "mode-changed HDMI-1", "primary-changed HDMI-1"])
  }
}
