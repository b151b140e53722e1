import Testing
import FaultlineConfig
@testable import FaultlineProxy

@Suite("Where workers run")
struct WorkerPlacementTests {
    @Test func oneWorkerPerAllowedCPUIsBoundInOrder() {
        #expect(WorkerPlacement.choose(workers: 2, affinity: .auto, allowedCPUs: [0, 1]) == .pinned(cpus: [0, 1]))
        #expect(WorkerPlacement.choose(workers: 3, affinity: .auto, allowedCPUs: [2, 5, 7]) == .pinned(cpus: [2, 5, 7]))
        // taskset -c 1 with one worker: that worker stays on CPU 1.
        #expect(WorkerPlacement.choose(workers: 1, affinity: .auto, allowedCPUs: [1]) == .pinned(cpus: [1]))
    }

    @Test func anyOtherCountLeavesTheKernelToPlaceThem() {
        #expect(WorkerPlacement.choose(workers: 1, affinity: .auto, allowedCPUs: [0, 1])
                == .floating(reason: "1 worker(s) for 2 CPU(s) (0, 1); workers are bound only one per CPU"))
        #expect(WorkerPlacement.choose(workers: 4, affinity: .auto, allowedCPUs: [0, 1])
                == .floating(reason: "4 worker(s) for 2 CPU(s) (0, 1); workers are bound only one per CPU"))
    }

    @Test func theStartLineSaysWhereTheyRun() {
        #expect(WorkerPlacement.pinned(cpus: [2, 3]).description == "each bound to a CPU of its own (2, 3)")
        #expect(WorkerPlacement.floating(reason: "worker_affinity is none").description == "not bound to CPUs: worker_affinity is none")
    }

    @Test func noneAndAnUnknownMaskBindNothing() {
        #expect(WorkerPlacement.choose(workers: 2, affinity: .none, allowedCPUs: [0, 1])
                == .floating(reason: "worker_affinity is none"))
        #expect(WorkerPlacement.choose(workers: 2, affinity: .auto, allowedCPUs: [])
                == .floating(reason: "the CPUs this process may use are unknown"))
    }
}
