import HangulInput

/// The writing-process measures of a document (hangul-keylog(5), MEASURES),
/// or of all documents added together.
package struct WritingMeasures: Sendable, Equatable {
  /// `--pause`: the least interval that is a pause, in milliseconds.
  package var pauseThreshold = WritingProcessMeter.defaultPause
  /// The intervals between keys: all, then by ``IntervalPlace``.
  package var intervals = IntervalTally()
  package var intervalsByPlace = [IntervalTally](repeating: IntervalTally(), count: 4)
  /// Intervals of `--pause` or more, their place, and the total time.
  package var pauses = IntervalTally(median: false)
  package var pausesByPlace = [0, 0, 0, 0]
  /// P-bursts: the runs of keys between pauses (a document with keys has at least one).
  package var bursts = 0
  /// Characters committed to the document, those deleted later included.
  package var charactersProduced = 0
  package var charactersDeleted = 0
  package var backspacesInSyllable = 0
  /// Backspace and Delete keys that deleted committed characters.
  package var backspacesDeletingText = 0
  package var revisionEpisodes = 0
  /// Error rates against the document's target text, when there is one.
  package var errors: ErrorRates?

  package init() {}

  /// Mean P-burst length in characters: those produced over the bursts.
  package var meanBurstLength: Double? {
    bursts > 0 ? Double(charactersProduced) / Double(bursts) : nil
  }

  package mutating func add(_ other: WritingMeasures) {
    intervals.add(other.intervals)
    for place in 0..<4 {
      intervalsByPlace[place].add(other.intervalsByPlace[place])
      pausesByPlace[place] += other.pausesByPlace[place]
    }
    pauses.add(other.pauses)
    bursts += other.bursts
    charactersProduced += other.charactersProduced
    charactersDeleted += other.charactersDeleted
    backspacesInSyllable += other.backspacesInSyllable
    backspacesDeletingText += other.backspacesDeletingText
    revisionEpisodes += other.revisionEpisodes
    if let theirs = other.errors { errors = (errors ?? ErrorRates()).adding(theirs) }
  }

  /// Keeps the medians, drops the histograms (a finished document).
  package mutating func compact() {
    intervals.compact()
    for place in 0..<4 { intervalsByPlace[place].compact() }
  }
}

/// What the editor did with one key, as the measures see it.
package struct KeyEffect: Sendable {
  package enum Kind: Sendable {
    /// Backspace, Delete, Ctrl-W.
    case deleting
    /// An arrow, Home, End.
    case moving
    /// A key that typed a space, tab or line break.
    case whitespace
    case other
  }

  package var time: Double?
  package var kind: Kind
  /// Where the key's jamo landed in the syllable being composed.
  package var role: SyllablePart?
  /// Whether that jamo began a syllable (nothing was composing, or the key
  /// committed the one that was).
  package var startsSyllable: Bool

  package init(time: Double?, kind: Kind, role: SyllablePart? = nil, startsSyllable: Bool = false) {
    self.time = time
    self.kind = kind
    self.role = role
    self.startsSyllable = startsSyllable
  }
}

/// The per-key columns of `--output keystrokes` (hangul-keylog(5), MEASURES).
package struct KeyMeasures: Sendable, Equatable {
  /// Milliseconds since the key before in the document, when both have a time.
  package var interval: Double?
  package var role: SyllablePart?
  /// The syllable the key's jamo landed in, counted from 1 in the document.
  package var syllable: Int?
  package var pause: Bool
  /// The P-burst, counted from 1 in the document.
  package var burst: Int
  package var revision: Bool
  /// Where the interval before the key falls (`nil` for the first key).
  package var place: IntervalPlace?
}

/// Measures one document key by key; O(1) a key, memory bounded by
/// ``MillisecondHistogram``.
package struct WritingProcessMeter: Sendable {
  /// The least interval that is a pause, in milliseconds (`--pause`).
  package let pauseThreshold: Double
  private(set) var measures: WritingMeasures
  /// The key before: its time, whether it was revising or typed whitespace.
  private var previous: (exists: Bool, time: Double?, revision: Bool, whitespace: Bool) = (
    false, nil, false, false
  )
  private var syllables = 0
  private var inEpisode = false

  package static let defaultPause = 2000.0

  package init(pauseThreshold: Double = WritingProcessMeter.defaultPause) {
    self.pauseThreshold = pauseThreshold
    measures = WritingMeasures()
    measures.pauseThreshold = pauseThreshold
  }

  /// Takes the next key of the document; returns its columns.
  package mutating func take(_ effect: KeyEffect) -> KeyMeasures {
    var revision = false
    switch effect.kind {
    case .deleting:
      revision = true
      if !inEpisode { measures.revisionEpisodes += 1 }
      inEpisode = true
    case .moving where inEpisode:
      revision = true
    default:
      inEpisode = false
    }
    var syllable: Int?
    if effect.role != nil {
      if effect.startsSyllable || syllables == 0 { syllables += 1 }
      syllable = syllables
    }
    var place: IntervalPlace?
    if previous.exists {
      if revision || previous.revision {
        place = .aroundRevision
      } else if previous.whitespace {
        place = .betweenWords
      } else if effect.role != nil, !effect.startsSyllable {
        place = .withinSyllable
      } else {
        place = .betweenSyllables
      }
    }
    var interval: Double?
    if let time = effect.time, let before = previous.time { interval = time - before }
    let pause = interval.map { $0 >= pauseThreshold } ?? false
    if !previous.exists || pause { measures.bursts += 1 }
    if let interval, let place {
      measures.intervals.add(interval)
      measures.intervalsByPlace[place.rawValue].add(interval)
      if pause {
        measures.pauses.add(interval)
        measures.pausesByPlace[place.rawValue] += 1
      }
    }
    previous = (true, effect.time, revision, effect.kind == .whitespace)
    return KeyMeasures(
      interval: interval, role: effect.role, syllable: syllable, pause: pause,
      burst: measures.bursts, revision: revision, place: place)
  }

  /// The document's measures so far, with its editor's counts.
  package func measures(counts: EditCounts) -> WritingMeasures {
    var finished = measures
    finished.charactersProduced = counts.charactersCommitted
    finished.charactersDeleted = counts.charactersDeleted
    finished.backspacesInSyllable = counts.backspacesInSyllable
    finished.backspacesDeletingText =
      counts.backspaces - counts.backspacesInSyllable - counts.backspacesWithoutEffect
    return finished
  }
}
