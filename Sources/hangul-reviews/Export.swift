import ArgumentParser
import HangulCommandLine
import HangulKit

extension HangulReviews {
  struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Write review records as JSON Lines, the API envelope, POST bodies, CSV, COPY text or SQL.",
      discussion: """
        --to jsonl writes one record a line, --to api the envelope {"data":[…]}, --to \
        post one {"content": …} body a line. For bulk loading: --to csv (RFC 4180, header \
        row, CRLF), --to tsv (PostgreSQL COPY text format, no header) and --to sql \
        --dialect sqlite|postgresql (CREATE TABLE IF NOT EXISTS and INSERTs in one \
        transaction), with the columns of --columns (dotted member paths; default: the \
        members of the first record, and a member a later record adds is reported, not \
        written, status 65). A value holding U+0000 skips its record unless \
        --nul replace. --decompose rewrites the content; --search adds search columns \
        for it: content_initials (initials, clusters split: 안녕 ㄻ → ㅇㄴ ㄹㅁ), \
        content_jamo (ㅇㅏㄴㄴㅕㅇ ㄻ) and content_qwerty (dkssud fa), for LIKE '%ㅇㄴ%' \
        and LIKE '%dkssud%'; \
        --relative-time adds "elapsed": N초 전, N분 전, N시간 전, or the date in the \
        locale's numeric style (ko_KR: 2022. 07. 21.); a date in the future keeps its raw \
        value. A record that cannot be exported is reported and skipped (status 65).

        Examples:
          hangul-reviews export --to api samples/reviews-keys.expected.jsonl
          hangul-reviews export --to post --decompose qwerty --plain \\
            samples/reviews-keys.expected.jsonl
          hangul-reviews export --relative-time --now 2022-07-22T00:00:00Z \\
            --time-zone Asia/Seoul samples/reviews-keys.expected.jsonl
          hangul-reviews export --to csv --columns _id,user.userName,content \\
            samples/reviews-keys.expected.jsonl
          hangul-reviews export --to sql --dialect postgresql --table reviews \\
            samples/reviews-keys.expected.jsonl
          hangul-reviews export --to csv --columns _id,content --search initials,qwerty \\
            samples/reviews-keys.expected.jsonl
        """)

    @Option(
      help:
        "What to write: jsonl, api (the envelope), post (request bodies), csv, tsv (COPY text) or sql."
    )
    var to: ReviewExportFilter.Shape = .jsonl

    @OptionGroup var tableOutput: TableOutputOptions

    @Option(
      help: ArgumentHelp(
        "Rewrite the content as keys, jamo, nfd, qwerty or initials.", valueName: "form"))
    var decompose: DecompositionForm?

    @Flag(
      help: "With --decompose keys or qwerty: no U+200C or U+2060, so no exact round trip (lossy).")
    var plain = false

    @Option(
      help: ArgumentHelp(
        "Add search columns for the content, comma-separated: initials, jamo, qwerty (content_initials, …).",
        valueName: "list"))
    var search: String?

    /// The keys of --search, in its order.
    var searchKeys: [ReviewSearchKey] {
      (search ?? "").split(separator: ",").compactMap { ReviewSearchKey(rawValue: String($0)) }
    }

    @Flag(help: "Add \"elapsed\": how long ago each review was written.")
    var relativeTime = false

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("The time --relative-time counts from (default: now).", valueName: "time"))
    var now: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "Show dates, and read dates without a zone, in this time zone.", valueName: "tz"),
      completion: .timeZones)
    var timeZone: String?

    @Option(
      help: ArgumentHelp(
        "Write dates in this locale's numeric style (default: from LC_ALL, LC_TIME or LANG, else ko_KR).",
        valueName: "locale"),
      completion: .dateLocales)
    var locale: String?

    @Option(help: ArgumentHelp("The member that holds the text.", valueName: "name"))
    var contentField = "content"

    @Option(
      help: ArgumentHelp("The member of an envelope that holds the records.", valueName: "name"))
    var recordsField = "data"

    /// The locale in effect.
    var effectiveLocale: String {
      locale ?? NumericDateStyle.defaultLocale(environment: environment)
    }

    @Flag(name: .shortAndLong, help: "Do not write the summary line to standard error.")
    var quiet = false

    @OptionGroup var input: InputOptions

    @Argument(help: "Review files to read; - is standard input.", completion: .file())
    var files: [FilePath] = []

    func validate() throws {
      let tabular = to.tableFormat(dialect: .sqlite) != nil
      if !tabular, tableOutput.columns != nil || tableOutput.nul != .reject {
        throw ValidationError("--columns and --nul only apply with --to csv, tsv or sql")
      }
      if to != .sql, tableOutput.dialect != nil || tableOutput.table != nil {
        throw ValidationError("--dialect and --table only apply with --to sql")
      }
      if to == .sql, tableOutput.dialect == nil {
        throw ValidationError("--to sql needs --dialect sqlite or --dialect postgresql")
      }
      if let paths = tableOutput.columnPaths {
        for path in paths
        where path.isEmpty
          || path.split(separator: ".").count
            != path.split(separator: ".", omittingEmptySubsequences: false).count
        {
          throw ValidationError(
            "--columns '\(tableOutput.columns ?? "")' has an empty column or member name; write paths like _id,user.userName"
          )
        }
      }
      if tableOutput.table?.isEmpty == true { throw ValidationError("--table needs a name") }
      if tableOutput.dialect == .postgresql {
        for name in (tableOutput.columnPaths ?? []) + [tableOutput.table ?? ""]
        where name.utf8.count > 63 {
          throw ValidationError(
            "'\(name)' is longer than the 63 bytes PostgreSQL keeps of a name; use a shorter one")
        }
      }
      if let search {
        let names = search.split(separator: ",", omittingEmptySubsequences: false)
        let known = ReviewSearchKey.allCases.map(\.rawValue)
        for name in names where !known.contains(String(name)) {
          throw ValidationError(
            "--search '\(ProgramArguments.shortened(search))': '\(ProgramArguments.shortened(String(name)))' is not a search key; use a list of \(known.joined(separator: ", "))"
          )
        }
        if Set(names).count != names.count {
          throw ValidationError(
            "--search '\(ProgramArguments.shortened(search))' names a key twice")
        }
        if to == .post {
          throw ValidationError("--search adds columns: it does not apply with --to post")
        }
      }
      if plain, decompose?.isKeystrokes != true {
        throw ValidationError("--plain only applies with --decompose keys or --decompose qwerty")
      }
      // --relative-time shows dates in the zone: it must name one.
      try ReviewTime.validate(timeZone, needsLocalTime: relativeTime)
      if let locale, NumericDateStyle(locale: locale) == nil {
        let known = NumericDateStyle.byLocale.keys.sorted().joined(separator: ", ")
        throw ValidationError(
          "unknown locale '\(ProgramArguments.shortened(locale))'; use one of \(known)")
      }
      if let now {
        guard
          (try? ReviewDate(now, timeZone: ReviewTime.zone(timeZone))) != nil || Double(now) != nil
        else {
          throw ValidationError(
            "--now '\(ProgramArguments.shortened(now))' is not a date like 2022-07-21T11:53:58Z or a number of seconds"
          )
        }
      }
      try OutputChecks.standardOutput(isNotOneOf: files)
      if !relativeTime, now != nil || locale != nil {
        throw ValidationError("--now and --locale only apply with --relative-time")
      }
    }

    func run() throws {
      SystemCalls.ignoreBrokenPipeSignal()
      let diagnostics = Diagnostics(program: "hangul-reviews")
      let errors = ErrorReport(diagnostics)
      let zone = ReviewTime.zone(timeZone)
      var relative: RelativeTime?
      if relativeTime, let style = NumericDateStyle(locale: effectiveLocale) {
        let instant: ReviewDate
        if let now {
          instant =
            (try? ReviewDate(now, timeZone: zone)) ?? ReviewDate(secondsSince1970: Double(now) ?? 0)
        } else {
          instant = ReviewDate(secondsSince1970: secondsSince1970())
        }
        relative = RelativeTime(now: instant, timeZone: zone, style: style)
      }
      var tableWriter: ReviewTableWriter?
      if let format = to.tableFormat(dialect: tableOutput.dialect ?? .sqlite) {
        // With --columns, the search columns it does not name come after its own.
        let searchColumns = searchKeys.map { $0.columnName(for: contentField) }
        tableWriter = ReviewTableWriter(
          format: format,
          columns: tableOutput.columnPaths.map { paths in
            paths + searchColumns.filter { !paths.contains($0) }
          },
          table: tableOutput.table ?? "reviews", nul: tableOutput.nul)
      }
      var filter = ReviewExportFilter(
        to: to, table: tableWriter, decompose: decompose, plainKeys: plain, search: searchKeys,
        relativeTime: relative, contentField: contentField, recordsField: recordsField,
        timeZone: zone, structureProblem: { errors.add($0.description) },
        memberLeftOut: { errors.add($0.description) }
      ) { errors.add($0.description) }
      let status = input.runner(files).run(&filter, report: diagnostics.report).exitStatus
      errors.finish()
      if !quiet {
        diagnostics.report(
          recordSummary(
            read: filter.recordsExported + filter.recordsSkipped,
            ("exported", filter.recordsExported), ("skipped", filter.recordsSkipped))
            + (tableOutput.nul == .replace
              ? ", U+0000 replaced in \(count(filter.valuesWithNULReplaced))" : "")
        )
      }
      if status != 0 { throw ExitCode(status) }
      if filter.recordsSkipped > 0 || filter.structureProblemCount > 0 || filter.membersLeftOut > 0
      {
        throw ExitCode(65)
      }
    }
  }
}

/// `1 value`, `2 values`.
private func count(_ values: Int) -> String {
  "\(values) value\(values == 1 ? "" : "s")"
}
