import DisplayCLI
import DisplayModel
import DisplaySupport

#if canImport(Glibc)
  import Glibc
#endif

extension ProfileCommand {
  /// `profile import autorandr|kanshi [PATH] [--write]`: the other tool's profiles printed as
  /// elements of `profiles: [ ... ]`, or appended to the config; notes on stderr. A profile
  /// that cannot be read is an error, and then nothing is written.
  func importProfiles(_ tool: ImportTool, _ path: String?, toConfig: Bool, _ args: Arguments) throws -> ExitStatus {
    guard let source = path ?? Self.defaultSource(tool) else {
      printError("no \(tool.rawValue) path given, and neither XDG_CONFIG_HOME nor HOME is set")
      return .failure
    }
    let result = tool == .autorandr ? Self.readAutorandr(source) : Self.readKanshi(source)
    let notes = result.notes.sorted { ($0.file, $0.line ?? 0) < ($1.file, $1.line ?? 0) }
    // The files' words are shown escaped: a control character in one cannot forge a line.
    for note in notes { Console.err("displayd: note: \(Logger.escaped(note.description))\n") }
    for broken in result.broken { printError("cannot import: \(broken.description)") }
    if result.profiles.isEmpty && result.broken.isEmpty {
      printError("no \(tool.rawValue) profiles in \(source)")
      return .failure
    }
    if toConfig {
      guard result.broken.isEmpty else {
        printError("nothing written: fix or move the profiles that cannot be imported first")
        return .failure
      }
      return try append(result.profiles.map(\.object), names: result.profiles.map { Logger.escaped($0.name) }, args)
    }
    write(result.profiles.map { $0.text + "\n" }.joined())
    return result.broken.isEmpty ? .success : .failure
  }

  /// `$XDG_CONFIG_HOME/autorandr` (or `kanshi/config`), else under `~/.config`.
  static func defaultSource(_ tool: ImportTool) -> String? {
    let tail = tool == .autorandr ? "/autorandr" : "/kanshi/config"
    if let xdg = environment("XDG_CONFIG_HOME"), !xdg.isEmpty { return xdg + tail }
    guard let home = environment("HOME"), !home.isEmpty else { return nil }
    return home + "/.config" + tail
  }

  /// Every profile folder of `dir` (or `dir` itself when it is one), in name order.
  static func readAutorandr(_ dir: String) -> ImportResult {
    var result = ImportResult()
    let folders = isProfile(dir) ? [dir] : entries(of: dir, &result).map { dir + "/" + $0 }
    for folder in folders {
      guard isProfile(folder) else {
        let what = isDirectory(folder) ? "no config and setup: not a profile" : "not a profile (autorandr's own file?)"
        result.notes.append(ImportNote(folder, nil, what))
        continue
      }
      let name = String(folder.split(separator: "/").last ?? Substring(folder))
      let texts = [folder + "/setup", folder + "/config"].map { file in
        readFile(file, limit: FileLimit.config).map { String(decoding: $0, as: UTF8.self) }
          .mapError { ImportNote(file, nil, "cannot read: \($0)") }
      }
      do {
        let (setup, config) = (try texts[0].get(), try texts[1].get())
        let profile = AutorandrImport.profile(
          name: name, setup: setup, setupFile: folder + "/setup", config: config, configFile: folder + "/config")
        let (imported, notes) = try profile.get()
        result.profiles.append(imported)
        result.notes += notes + otherFiles(folder)
      } catch let note as ImportNote {
        result.broken.append(note)
      } catch {}
    }
    return result
  }

  static func readKanshi(_ file: String) -> ImportResult {
    switch readFile(file, limit: FileLimit.config) {
    case .success(let bytes):
      // The company names a compositor puts in a description come from hwdata's table.
      let pnp = readFile("/usr/share/hwdata/pnp.ids", limit: FileLimit.config)
      let vendors = (try? pnp.get()).map { KanshiImport.vendors(pnpIDs: String(decoding: $0, as: UTF8.self)) } ?? [:]
      return KanshiImport.read(String(decoding: bytes, as: UTF8.self), file: file, vendors: vendors)
    case .failure(let error):
      var result = ImportResult()
      result.broken.append(ImportNote(file, nil, "cannot read: \(error)"))
      return result
    }
  }

  /// autorandr's hook scripts and anything else in a profile's folder, as notes.
  private static func otherFiles(_ folder: String) -> [ImportNote] {
    var ignored = ImportResult()
    return entries(of: folder, &ignored).filter { $0 != "config" && $0 != "setup" }.map { name in
      let hook = ["preswitch", "postswitch", "predetect", "postsave", "block"].contains { name.hasPrefix($0) }
      let why = hook ? "autorandr's hook not imported: the profile's hooks.applied runs commands" : "not imported"
      return ImportNote(folder + "/" + name, nil, why)
    }
  }

  private static func isProfile(_ dir: String) -> Bool { isFile(dir + "/config") && isFile(dir + "/setup") }

  private static func isFile(_ path: String) -> Bool {
    var s = stat()
    return stat(path, &s) == 0 && (s.st_mode & S_IFMT) == S_IFREG
  }

  private static func isDirectory(_ path: String) -> Bool {
    var s = stat()
    return stat(path, &s) == 0 && (s.st_mode & S_IFMT) == S_IFDIR
  }

  /// The names in `dir`, sorted, without hidden ones.
  private static func entries(of dir: String, _ result: inout ImportResult) -> [String] {
    guard let handle = opendir(dir) else {
      result.broken.append(ImportNote(dir, nil, "cannot read the folder: \(String(cString: strerror(errno)))"))
      return []
    }
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if !name.hasPrefix(".") { names.append(name) }
    }
    return names.sorted()
  }
}
