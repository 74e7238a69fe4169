import DisplayKit
import DisplayModel
import DisplayService
import DisplayX11
import Testing
import XRig

/// The events the daemon derives from two snapshots of RandR desks' heads: what `watch`,
/// the hooks and the log say of a plug, an unplug, a mode change, a move, a turn, a head
/// turned off, another monitor, and main moving.
@Suite struct SnapshotDiffOnRandRDeskTests {
  let names = ["eDP-1", "HDMI-1", "DP-1"]

  @Test func identicalSnapshotsGiveNoEvents() {
    let t = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024])
    #expect(SnapshotDiff.events(from: HeadSnapshot(topology: t), to: HeadSnapshot(topology: t)).isEmpty)
  }

  @Test func plugGivesConnectedWithGeometryAndMode() throws {
    let before = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080])
    let after = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024])
    let events = SnapshotDiff.events(from: HeadSnapshot(topology: before), to: HeadSnapshot(topology: after))
    #expect(events.map(\.kind) == [.connected])
    let e = try #require(events.first)
    #expect(e.head.name == "HDMI-1")
    #expect(e.rect == Rect(x: 1920, y: 0, width: 1280, height: 1024))
    #expect(e.mode.map { "\($0.width)x\($0.height)" } == "1280x1024")
  }

  @Test func unplugGivesDisconnected() {
    let before = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024])
    let after = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080])
    let events = SnapshotDiff.events(from: HeadSnapshot(topology: before), to: HeadSnapshot(topology: after))
    #expect(events.map(\.kind) == [.disconnected])
    #expect(events.first?.head.name == "HDMI-1")
    #expect(events.first?.rect == nil)
  }

  @Test func vanishedOutputGivesDisconnected() {
    let before = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080, "DP-1": TopologyBuilder.m1024])
    var after = before
    after.outputs.removeAll { $0.name == "DP-1" }
    #expect(
      SnapshotDiff.events(from: HeadSnapshot(topology: before), to: HeadSnapshot(topology: after)).map { "\($0.kind.rawValue) \($0.head.name)" } == [
        "disconnected DP-1"
      ])
  }

  @Test func modeChangeAndMoveGiveModeChanged() {
    let before = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024])
    let resized = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m768])
    #expect(SnapshotDiff.events(from: HeadSnapshot(topology: before), to: HeadSnapshot(topology: resized)).map(\.kind) == [.modeChanged])
    var moved = before
    moved.crtcs[1].y = 56
    let events = SnapshotDiff.events(from: HeadSnapshot(topology: before), to: HeadSnapshot(topology: moved))
    #expect(events.map(\.kind) == [.modeChanged])
    #expect(events.first?.rect?.y == 56)
    var rotated = before
    rotated.crtcs[1].rotation = .left
    #expect(SnapshotDiff.events(from: HeadSnapshot(topology: before), to: HeadSnapshot(topology: rotated)).map(\.kind) == [.modeChanged])
  }

  @Test func turningOffAConnectedOutputIsAModeChange() {
    let before = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024])
    var after = before
    after.outputs[1].crtc = nil
    after.crtcs[1] = Crtc(id: after.crtcs[1].id)
    let events = SnapshotDiff.events(from: HeadSnapshot(topology: before), to: HeadSnapshot(topology: after))
    #expect(events.map(\.kind) == [.modeChanged])
    #expect(events.first?.rect == nil)
  }

  @Test func primaryChangeNamesTheNewMain() {
    let before = TopologyBuilder.topology(
      names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024], primary: "eDP-1")
    let after = TopologyBuilder.topology(
      names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024], primary: "HDMI-1")
    let events = SnapshotDiff.events(from: HeadSnapshot(topology: before), to: HeadSnapshot(topology: after))
    #expect(events.map(\.kind) == [.primaryChanged])
    #expect(events.first?.head.name == "HDMI-1")
  }

  @Test func edidChangeIsReported() {
    let before = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024])
    let after = TopologyBuilder.topology(
      names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024], edid: ["HDMI-1": [1, 2, 3]])
    #expect(
      SnapshotDiff.events(from: HeadSnapshot(topology: before), to: HeadSnapshot(topology: after)).map { "\($0.kind.rawValue) \($0.head.name)" } == [
        "edid-changed HDMI-1"
      ])
  }

  @Test func severalOutputsChangingAtOnce() {
    let before = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024])
    let after = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m768, "DP-1": TopologyBuilder.m1024])
    let events = SnapshotDiff.events(from: HeadSnapshot(topology: before), to: HeadSnapshot(topology: after)).map { "\($0.kind.rawValue) \($0.head.name)" }
    #expect(events == ["mode-changed eDP-1", "disconnected HDMI-1", "connected DP-1"])
  }

  @Test func losingTheMainOutputMovesMainAndSaysSo() {
    let before = TopologyBuilder.topology(names, on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024])
    let after = TopologyBuilder.topology(names, on: ["HDMI-1": TopologyBuilder.m1024])
    let events = SnapshotDiff.events(from: HeadSnapshot(topology: before), to: HeadSnapshot(topology: after)).map { "\($0.kind.rawValue) \($0.head.name)" }
    #expect(events == ["disconnected eDP-1", "mode-changed HDMI-1", "primary-changed HDMI-1"])
  }
}
