import Foundation
import FaultlineTestSupport

extension TemporaryDirectory {
    /// A fresh directory with a placeholder PEM file at each of the relative paths `files`
    /// (the loader checks that referenced files exist and can be read).
    convenience init(placeholders files: [String]) throws {
        try self.init(prefix: "faultline-config")
        for file in files {
            try write(file, "-----BEGIN PLACEHOLDER-----\n")
        }
    }

    /// Writes `json` as `name` and returns its path.
    func writeConfig(_ json: String, as name: String = "faultline.json") throws -> String {
        try write(name, json)
    }
}
