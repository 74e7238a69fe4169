import DisplayModel
import Testing

/// The profile planner's choices for clones where a planner that hands out CRTCs first would
/// choose otherwise: main is chosen among the lit heads before a `same-as` entry is placed,
/// and a clone of a clone shows the first head's picture rather than going off.
@Suite struct ProfileCloneValueTests {
  typealias D = HeadProfileDesk
  let laptop = HeadSnapshot(topology: ProfileFixtures.desk(["eDP-1", "DP-1", "HDMI-1"], primary: "eDP-1"))

  /// `same-as main` where main is itself a `same-as` entry: the clone shows main's picture,
  /// the picture of the head main clones, and nothing goes off.
  @Test func aSameAsMainEntryWhereMainIsItselfACloneShowsMainsPicture() throws {
    let plan = try D.plan(
      "{name: 'p', outputs: [{match: {output: 'DP-1'}}, {match: {output: 'eDP-1'}, position: 'same-as DP-1', primary: true}, {match: {output: 'HDMI-1'}, position: 'same-as main'}]}",
      on: laptop)
    #expect(
      PlanText.line(plan)
        == "DP-1 1920x1080@60000 +0+0 default; eDP-1 1920x1080@60000 +0+0 same-as DP-1 default;"
        + " HDMI-1 1920x1080@60000 +0+0 same-as DP-1 default | configures DP-1,HDMI-1,eDP-1")
  }

  /// A clone of a clone shows the first head's picture: it is lit, `same-as` that head.
  @Test func aCloneOfACloneShowsTheFirstHeadsPicture() throws {
    let plan = try D.plan(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {output: 'DP-1'}, position: 'same-as eDP-1'}, {match: {output: 'HDMI-1'}, position: 'same-as DP-1'}]}",
      on: laptop)
    #expect(
      PlanText.line(plan)
        == "eDP-1 1920x1080@60000 +0+0 default; DP-1 1920x1080@60000 +0+0 same-as eDP-1 default;"
        + " HDMI-1 1920x1080@60000 +0+0 same-as eDP-1 default | configures DP-1,HDMI-1,eDP-1")
  }
}
