import Foundation

// The executable is the only place that prints; libraries report through values and events.
let status = CommandLineInterface.run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
