/// The runners with paths given as strings: a string's path is its UTF-8,
/// so a name that is not UTF-8 cannot be given this way (use ``FilePath``).
extension FilterRunner {
  package init(
    paths: [String], outputDescriptor: Int32 = 1, blockSize: Int = 128 * 1024,
    inputEncoding: String? = nil, mapsInputs: Bool = false
  ) {
    self.init(
      paths: paths.map { FilePath($0) }, outputDescriptor: outputDescriptor, blockSize: blockSize,
      inputEncoding: inputEncoding, mapsInputs: mapsInputs)
  }
}

extension ParallelFilterRunner {
  package init(
    paths: [String], jobs: Int, separator: UInt8 = 0x0A, pieceSize: Int = 2 << 20,
    outputDescriptor: Int32 = 1, inputEncoding: String? = nil, blockSize: Int = 128 * 1024
  ) {
    self.init(
      paths: paths.map { FilePath($0) }, jobs: jobs, separator: separator, pieceSize: pieceSize,
      outputDescriptor: outputDescriptor, inputEncoding: inputEncoding, blockSize: blockSize)
  }
}
