extension UnsafeMutablePointer {
    /// New memory for `capacity` elements that holds the first `count` elements of this
    /// memory, which is freed: how the decoder's and the log writers' own buffers grow.
    package func movedToLarger(count: Int, capacity: Int) -> UnsafeMutablePointer<Pointee> {
        let larger = UnsafeMutablePointer<Pointee>.allocate(capacity: capacity)
        larger.moveInitialize(from: self, count: count)
        deallocate()
        return larger
    }
}
