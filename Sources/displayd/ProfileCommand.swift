import DisplayCLI
import DisplayModel
import DisplayPorts
import DisplayService
import DisplaySupport
import DisplayX11

#if canImport(Glibc)
  import Glibc
#endif

struct ProfileCommand: Subcommand {
  var spec: CommandSpec { ProfileCommandLine.spec }

  func run(_ args: Arguments) throws -> ExitStatus {
    switch try ProfileCommandLine.action(args) {
    case .list(let json): return try list(args, json: json)
    case .switchTo(let name): return try switchTo(name, args)
    case .switchLayout(let layout):
      return try ask("profile-switch", [("layout", .string(layout.rawValue))], args)
    case .switchAutomatic: return try ask("profile-switch", [("auto", .bool(true))], args)
    case .cycle: return try ask("profile-cycle", [], args)
    case .save(let name, let write): return try save(name, toConfig: write, args)
    case .importFrom(let tool, let path, let write): return try importProfiles(tool, path, toConfig: write, args)
    }
  }

  /// From the daemon when one runs, else from the default config and a fresh snapshot.
  private func list(_ args: Arguments, json: Bool) throws -> ExitStatus {
    let answer: ProfileListAnswer
    let client = try DaemonClient.open(display: args.display)
    if let client {
      let (line, _) = try client.request("profile-list", arguments: [])
      guard let decoded = try? ProfileListAnswer.decode(Array(line.utf8)) else {
        throw DaemonClient.Failure(message: "the daemon's answer is not a profile list")
      }
      answer = decoded
    } else {
      let config = try ConfigSource(explicit: nil).load(log: nil)
      let lid = config.lid(reading: currentLidState)
      let layout = try openBackend(args, spec, log: Logger(level: .error)).layout
      let snapshot = try layout.read()
      answer = .withoutDaemon(config: config, snapshot: snapshot, lid: lid, vendors: layout.vendors(of: snapshot))
    }
    write(json ? JSON.record(answer).serialized() + "\n" : ProfileReport.listText(answer, fromDaemon: client != nil))
    return .success
  }

  private func switchTo(_ name: String, _ args: Arguments) throws -> ExitStatus {
    let client = try DaemonClient.connect(display: args.display)
    let (_, answer) = try client.request("profile-switch", arguments: [("name", .string(name))])
    if let why = ProfileReport.refusal(answer) {
      printError("profile switch refused: \(why)")
      return .failure
    }
    write("switched to profile '\(name)'\n")
    return .success
  }

  /// A layout switch through the daemon, and what it did, in one line.
  private func ask(_ request: String, _ arguments: [(String, JSON)], _ args: Arguments) throws -> ExitStatus {
    let client = try DaemonClient.connect(display: args.display)
    let (_, answer) = try client.request(request, arguments: arguments)
    if let why = ProfileReport.refusal(answer) {
      printError("profile \(request == "profile-cycle" ? "cycle" : "switch") refused: \(why)")
      return .failure
    }
    write(ProfileReport.switchText(answer) + "\n")
    return .success
  }

  /// Prints the layout as one profile, or appends it to the config and has the daemon reload.
  private func save(_ name: String, toConfig: Bool, _ args: Arguments) throws -> ExitStatus {
    let profile: String
    // A compositor has no output properties; its heads are matched by make, model and
    // serial (the make's PNP ids from the system's `pnp.ids`).
    let backend = try openBackend(args, spec, log: Logger(level: .error))
    let snapshot = try backend.layout.read()
    var properties: [String: [String: OutputProperty]] = [:]
    if let store = backend.facilities.properties {
      for head in ProfileMatcher.desk(snapshot) {
        properties[head.name] = store.outputProperties(head: head.name, names: nil)
      }
    }
    profile = ProfileSave.text(
      name: name, snapshot: snapshot, properties: properties, vendors: backend.layout.vendors(of: snapshot))
    guard toConfig else {
      write(profile + "\n")
      return .success
    }
    return try append([profile], names: [name], args)
  }

  /// Appends profile objects to the config file (the running daemon's, else the default
  /// path), every other byte kept, and has the daemon reload. Nothing is written unless
  /// every one of them can be.
  func append(_ profiles: [String], names: [String], _ args: Arguments) throws -> ExitStatus {
    let client = try DaemonClient.open(display: args.display)
    guard let path = try configPath(client) else {
      printError("no config path: neither XDG_CONFIG_HOME nor HOME is set")
      return .failure
    }
    let bytes: [UInt8]
    switch readFile(path, limit: FileLimit.config) {
    case .success(let existing): bytes = existing
    case .failure(.system(let error)) where error.code == ENOENT: bytes = Array("{}\n".utf8)
    case .failure(let error): throw ConfigError(file: path, message: "cannot read: \(error)")
    }
    var edited = bytes
    for profile in profiles { edited = try ProfileSave.appending(profile, toConfig: edited, file: path) }
    do {
      try replaceFile(path, with: edited)
    } catch {
      printError("cannot write \(path): \(error)")
      return .failure
    }
    let quoted = names.map { "'\($0)'" }.joined(separator: ", ")
    write("appended profile\(names.count == 1 ? "" : "s") \(quoted) to \(path)\n")
    guard let client else { return .success }
    let answer: [String: JSON] = try client.request("reload")
    if case .string(let error)? = answer["error"] {
      printError("the daemon keeps its previous config: \(error)")
      return .failure
    }
    write("the daemon reloaded its config\n")
    return .success
  }

  /// The running daemon's config file, else the default path.
  private func configPath(_ client: DaemonClient?) throws -> String? {
    if let client, case .string(let path)? = (try client.request("config-path") as [String: JSON])["config"] {
      return path
    }
    return ConfigSource(explicit: nil).path
  }
}
