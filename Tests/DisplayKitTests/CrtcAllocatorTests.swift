import DisplayModel
import DisplayX11
import Testing

/// RandR's CRTC allocator, the configuration planner's. Pure.
@Suite struct OneCrtcAllocator {
  /// eDP-1 and HDMI-1 lit on their CRTCs, DP-1 dark; every output can use every CRTC.
  var desk: Topology {
    let m = TopologyBuilder.m1080
    var t = TopologyBuilder.topology(["eDP-1", "HDMI-1", "DP-1"], on: ["eDP-1": m, "HDMI-1": m])
    for i in t.outputs.indices { t.outputs[i].possibleCrtcs = t.crtcs.map(\.id) }
    for i in t.crtcs.indices { t.crtcs[i].possibleOutputs = [] }
    return t
  }

  @Test func anOutputKeepsItsOwnCrtcAndAnotherGetsOnlyAnIdleOne() {
    let t = desk
    var crtcs = CrtcAllocator(t)
    #expect(crtcs.crtc(for: t.outputs[1])?.id == t.crtcs[1].id, "its own")
    #expect(crtcs.crtc(for: t.outputs[2])?.id == t.crtcs[2].id, "the idle one, not a lit one")
    #expect(crtcs.crtc(for: t.outputs[2]) == nil, "none left: both lit CRTCs drive other outputs")
    crtcs.giveBack(t.crtcs[2].id)
    #expect(crtcs.free(for: t.outputs[2])?.id == t.crtcs[2].id, "given back, given again")
  }

  @Test func aCrtcDrivingAnOutputThePlanLetsGoIsFree() {
    let t = desk
    var lettingGo = CrtcAllocator(t, lettingGo: [t.outputs[0].id])
    #expect(lettingGo.free(for: t.outputs[2])?.id == t.crtcs[0].id, "eDP-1 goes off: its CRTC is free, first")
    var keeping = CrtcAllocator(t)
    #expect(keeping.free(for: t.outputs[2])?.id == t.crtcs[2].id, "eDP-1 stays: only the idle one")
  }

  @Test func anOwnCrtcTakenByAnotherOutputOfThePlanIsNotGivenTwice() {
    var t = desk
    // HDMI-1 and DP-1 share one lit CRTC (a clone made by hand).
    t.crtcs[1].outputs = [t.outputs[1].id, t.outputs[2].id]
    t.outputs[2].crtc = t.crtcs[1].id
    var crtcs = CrtcAllocator(t)
    #expect(crtcs.own(t.outputs[1])?.id == t.crtcs[1].id)
    #expect(crtcs.own(t.outputs[2]) == nil)
    #expect(crtcs.free(for: t.outputs[2])?.id == t.crtcs[2].id)
  }
}
