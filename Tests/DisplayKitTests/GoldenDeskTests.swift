import DisplayModel
import Testing

/// The product's planners on random desks give the answers a person reviewed once
/// (`GoldenDesks`, `Fixtures/golden`): rules, profiles, the lid, the layout restore, the
/// built-in layouts and the window policy, each on RandR desks as the X backend reports
/// them and on wlroots desks.
@Suite struct GoldenDeskTests {
  @Test func theRulePlannerOnRandomRandRDesks() throws {
    try GoldenDesks.expectGolden("rules-x", minimum: 150) { GoldenDesks.rules(try GoldenDesks.rulesOnX($0)) }
  }

  @Test func theRulePlannerOnRandomWaylandDesks() throws {
    try GoldenDesks.expectGolden("rules-wayland", minimum: 150) {
      GoldenDesks.rules(try GoldenDesks.rulesOnWayland($0))
    }
  }

  @Test func theProfilePlannerOnRandomRandRDesksAndProfiles() throws {
    try GoldenDesks.expectGolden("profiles-x", minimum: 150) { GoldenDesks.profile(try GoldenDesks.profileOnX($0)) }
  }

  @Test func theProfilePlannerOnRandomWaylandDesksAndProfiles() throws {
    try GoldenDesks.expectGolden("profiles-wayland", minimum: 150) {
      GoldenDesks.profile(try GoldenDesks.profileOnWayland($0))
    }
  }

  @Test func theLidPolicyOnRandomDesks() throws {
    try GoldenDesks.expectGolden("lid", minimum: 150) { GoldenDesks.lid(try GoldenDesks.lidDesk($0)) }
  }

  @Test func theLayoutRestoreOnRandomDesksChangedByHand() throws {
    try GoldenDesks.expectGolden("restore", minimum: 150) { GoldenDesks.restore(try GoldenDesks.restoreDesk($0)) }
  }

  @Test func everyBuiltInLayoutOnRandomDesks() throws {
    try GoldenDesks.expectGolden("builtin", minimum: 50) { seed in
      let desk = try GoldenDesks.builtinDesk(seed)
      return desk.layouts.indices.map { GoldenDesks.builtin(desk, $0) }.joined(separator: " || ")
    }
  }

  @Test func theWindowPolicyOnRandomDesks() throws {
    try GoldenDesks.expectGolden("windows", minimum: 150) { GoldenDesks.windows(try GoldenDesks.windowDesk($0)) }
  }
}

extension GoldenDeskTests {
  @Test func outputPropertiesAndTouchOnRandomRandRDesks() throws {
    try GoldenDesks.expectGolden("extras-x", minimum: 150) { try GoldenDesks.extrasOnX($0) ?? "not sayable" }
  }

  @Test func outputPropertiesAndTouchOnRandomWaylandDesks() throws {
    try GoldenDesks.expectGolden("extras-wayland", minimum: 150) { try GoldenDesks.extrasOnWayland($0) }
  }
}
