import DisplayModel
import DisplaySupport

extension Config {
  /// Reads and validates a config file: the file is read here, in the service, and the model
  /// parses its bytes, so its errors name the file, the line and the key as before.
  public static func load(path: String) throws(ConfigError) -> Config {
    switch readFile(path, limit: FileLimit.config) {
    case .failure(let error): throw ConfigError(file: path, message: "cannot read: \(error)")
    case .success(let bytes): return try parse(bytes, file: path)
    }
  }
}
