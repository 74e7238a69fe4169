import DisplayKit
import DisplayModel
import DisplayService
import Foundation
import Testing
import XRig

/// The complete example config of the profiles page (between its `example-config` markers)
/// is a config the loader takes, and says what the page says it does.
@Suite struct ProfilesPageExampleTests {
  static func example() throws -> String {
    let page = try repositoryFile("docs/profiles.md")
    let begin = try #require(page.range(of: "<!-- example-config:begin -->\n```json5\n"))
    let end = try #require(page.range(of: "```\n<!-- example-config:end -->"))
    return String(page[begin.upperBound..<end.lowerBound])
  }

  @Test func theLaptopAndTwoMonitorsExampleLoads() throws {
    let path = try makeTempDirectory("displayd-profiles-page") + "/config.json5"
    try Self.example().write(toFile: path, atomically: true, encoding: .utf8)
    let config = try Config.load(path: path)
    #expect(config.lidClosed == .disable)
    #expect(config.profiles.map(\.name) == ["office-docked", "office-open", "sofa", "projector"])
    let docked = try #require(config.profiles.first)
    #expect(docked.lid == .closed && docked.dpi == .fixed(192) && docked.appliedHooks.count == 1)
    #expect(docked.outputs.map(\.enabled) == [false, nil, nil])
    #expect(docked.outputs.map(\.primary) == [false, true, false])
    #expect(docked.outputs[2].transform == .rotated90 && docked.outputs[2].scale == 2)
    #expect(docked.outputs[2].position == ProfilePosition("right-of big"))
    #expect(config.profiles[2].dpi == .auto)
    #expect(config.profiles[3].outputs[1].position == .sameAs("laptop"))
  }
}
