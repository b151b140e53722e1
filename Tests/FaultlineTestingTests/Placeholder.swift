import Testing
@testable import FaultlineTesting
