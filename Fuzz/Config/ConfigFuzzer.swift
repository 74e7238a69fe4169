// The config reader under fuzzing: any text must give a Config or a ConfigError, never a
// trap; a syntax error's line must be a line of the text. Built as the EDID fuzzer is.

import DisplayModel

#if !DISPLAYD_LIBFUZZER
  import FuzzRunner

  @main enum ConfigFuzzer {
    static func main() { SeedRunner.main(fuzzConfig) }
  }
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  do {
    let config = try Config.parse(bytes, file: "fuzz.json5")
    precondition(ConfigFuzzBounds.hold(config), "a number out of bounds passed the check")
  } catch {
    let lines = 1 + bytes.filter { $0 == 0x0A }.count
    if let line = error.line { precondition(line >= 1 && line <= lines, "line \(line) of \(lines)") }
    _ = error.description
  }
  return 0
}

enum ConfigFuzzBounds {
  static func hold(_ config: Config) -> Bool {
    let settings =
      [config.defaults]
      + config.monitors.map { rule in
        var s = MonitorSettings()
        if let m = rule.mode { s.mode = m }
        if let p = rule.position { s.position = p }
        return s
      }
    let timeout = config.hooks.timeoutSeconds
    return timeout > 0 && timeout <= 3600
      && settings.allSatisfy { s in
        switch s.mode {
        case .size(let w, let h): return ModeRequest.sizes.contains(w) && ModeRequest.sizes.contains(h)
        case .sizeRate(let w, let h, let r):
          return ModeRequest.sizes.contains(w) && ModeRequest.sizes.contains(h) && r > 0 && r <= 1000
        default: break
        }
        if case .absolute(let x, let y) = s.position {
          return PositionRequest.coordinates.contains(x) && PositionRequest.coordinates.contains(y)
        }
        return true
      }
  }
}
