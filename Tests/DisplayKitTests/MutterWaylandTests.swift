import DisplayModel
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// displayd in a GNOME Wayland session: mutter 43, headless, as the compositor (it offers no
/// `zwlr_output_manager_v1`), and its Xwayland, whose RandR the compositor owns and whose
/// outputs report no physical size.
extension XServerTests {
  @Suite struct UnderMutterOnWayland {
    /// The Wayland socket mutter made in its runtime folder (`wayland-0`).
    static func socket(_ mutter: MutterWayland) throws -> String {
      let run = mutter.bus.home + "/run"
      let names = try FileManager.default.contentsOfDirectory(atPath: run)
      return try #require(names.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }, "\(names)")
    }

    /// A Wayland session's environment without `$DISPLAY`: the compositor's socket, and
    /// nothing of the test runner's (no config, no daemon, no bus).
    static func waylandOnly(_ mutter: MutterWayland) throws -> [String: String] {
      [
        "WAYLAND_DISPLAY": try socket(mutter), "XDG_RUNTIME_DIR": mutter.bus.home + "/run", "HOME": mutter.bus.home,
        "XDG_CONFIG_HOME": "/nonexistent", "PATH": "/usr/bin:/bin",
      ]
    }

    /// X clients of mutter's Xwayland, on its session bus, with a runtime folder of their own
    /// (no daemon there unless the test starts one).
    static func onXwayland(_ mutter: MutterWayland, runtime: String) -> [String: String] {
      [
        "DISPLAY": mutter.display, "XAUTHORITY": mutter.xauthority, "DBUS_SESSION_BUS_ADDRESS": mutter.bus.address,
        "XDG_RUNTIME_DIR": runtime, "HOME": mutter.bus.home, "XDG_CONFIG_HOME": "/nonexistent",
        "PATH": "/usr/bin:/bin",
      ]
    }

    /// With `$DISPLAY` unset every command that reads the desk says that it found mutter's
    /// socket, why it did not use it, and that there is no X display: exit status 69.
    @Test func withoutAnOutputManagerTheErrorSaysWhatWasFoundAndWhyEachWasNotUsed() throws {
      let mutter = try MutterWayland(monitors: ["1280x720"])
      let env = try Self.waylandOnly(mutter)
      let socket = try Self.socket(mutter)
      let found =
        "WAYLAND_DISPLAY=\(socket): the compositor 'mutter' offers no zwlr_output_manager_v1 (GNOME's mutter?)"
      for command in [["outputs"], ["outputs", "--json"], ["modes"], ["watch"], ["apply"], ["profile", "save", "p"]] {
        let r = try runCommand([displaydPath] + command, environment: env)
        #expect(r.status == 69, "\(command): \(r)")
        #expect(r.err == "displayd: \(found); DISPLAY is not set\n", "\(command)")
      }
      // An X display named that cannot be opened is named instead.
      var withX = env
      withX["DISPLAY"] = ":4242"
      let x = try runCommand([displaydPath, "outputs"], environment: withX)
      #expect(x.status == 69 && x.err == "displayd: \(found); cannot open X display ':4242'\n", "\(x)")
      // check-config checks the file alone, and says why.
      let check = try runCommand([displaydPath, "check-config"], environment: env)
      #expect(check.status == 0, "\(check)")
      #expect(check.out.contains("(no X display reachable: \(found); DISPLAY is not set; monitors"), "\(check.out)")
      // Asked for Wayland, the compositor is named as the automatic choice names it.
      let wayland = try runCommand([displaydPath, "outputs", "--backend", "wayland"], environment: env)
      #expect(wayland.status == 69, "\(wayland)")
      #expect(
        wayland.err
          == "displayd: Wayland compositor '\(socket)': the compositor 'mutter' offers no zwlr_output_manager_v1 "
          + "(GNOME's mutter?)\n")
    }

    /// mutter's Xwayland reports 0 mm for its outputs: unknown, as on any X server.
    @Test func outputsOnMuttersXwaylandPrintAnUnknownSize() throws {
      let mutter = try MutterWayland(monitors: ["1280x720"])
      let env = Self.onXwayland(mutter, runtime: try runtimeDirectory())
      let xrandr = try mutter.run(["xrandr"]).out
      #expect(xrandr.contains("XWAYLAND0 connected") && xrandr.contains(" 0mm x 0mm"), "\(xrandr)")
      let json = try runCommand([displaydPath, "outputs", "--json"], environment: env)
      #expect(json.status == 0, "\(json)")
      let outputs = try #require(try jsonObject(json.out)["outputs"] as? [[String: Any]])
      #expect(outputs.map { $0["name"] as? String } == ["XWAYLAND0"])
      #expect(outputs.first?["mm"] is NSNull, "\(json.out)")
      let text = try runCommand([displaydPath, "outputs"], environment: env)
      #expect(text.out.contains("XWAYLAND0 connected primary main 1280x720+0+0 "), "\(text.out)")
      #expect(text.out.contains(" 0mm x 0mm"), "\(text.out)")
    }

    /// `check-config`, `apply` (here and through a daemon) and `status` name mutter as the
    /// session bus shows it and give one advice: the compositor's own settings, never
    /// `desktop: "manage"`, which Xwayland's read-only RandR would refuse.
    @Test func checkConfigApplyAndStatusNameMutterAndGiveOneAdvice() throws {
      let mutter = try MutterWayland(monitors: ["1280x720", "1024x768"])
      let runtime = try runtimeDirectory()
      let env = Self.onXwayland(mutter, runtime: runtime)
      let config = try makeTempDirectory("displayd-config") + "/config.json5"
      try "{ monitors: [{ match: { output: 'XWAYLAND1' }, mode: '800x600' }] }".write(
        toFile: config, atomically: true, encoding: .utf8)

      let check = try runCommand([displaydPath, "check-config", config], environment: env)
      #expect(check.status == 0, "\(check)")
      let summary = try #require(check.out.split(separator: "\n").last.map(String.init))
      #expect(summary.hasPrefix("desktop: xwayland (GNOME's mutter on Wayland) manages displays: "), "\(summary)")
      #expect(summary.contains("mutter owns the layout (org.gnome.Mutter.DisplayConfig)"), "\(summary)")

      let apply = try runCommand([displaydPath, "apply", "--config", config], environment: env)
      #expect(apply.status == 1, "\(apply)")
      let refusal =
        #"displayd: apply refused: xwayland (GNOME's mutter on Wayland) manages the layout (desktop: "auto"): "#
      #expect(apply.err.hasPrefix(refusal), "\(apply.err)")
      let advice = String(apply.err.dropFirst(refusal.count).dropLast())
      #expect(summary.hasSuffix("; " + advice), "check-config: \(summary)\napply: \(advice)")
      #expect(!advice.contains(#"desktop: "manage""#), "\(advice)")

      let dry = try runCommand([displaydPath, "apply", "--dry-run", "--config", config], environment: env)
      #expect(dry.status == 0 && dry.out.hasSuffix(summary + "\n"), "\(dry.out)")

      let daemon = try DaemonProcess(
        display: mutter.display, config: "{ monitors: [{ match: { output: 'XWAYLAND1' }, mode: '800x600' }] }",
        environment: [
          "XAUTHORITY": mutter.xauthority, "XDG_RUNTIME_DIR": runtime, "DBUS_SESSION_BUS_ADDRESS": mutter.bus.address,
        ])
      #expect(daemon.log.contains { $0.hasSuffix(summary) }, "the log says what check-config says: \(daemon.log)")
      let status = try runCommand([displaydPath, "status"], environment: env)
      #expect(
        status.out.contains(
          "desktop: xwayland (GNOME's mutter on Wayland), policy auto: desktop lays the monitors out"),
        "\(status)")
      let through = try runCommand([displaydPath, "apply"], environment: env)
      #expect(through.status == 1 && through.err.hasSuffix(": " + advice + "\n"), "\(through)")
    }
  }
}
