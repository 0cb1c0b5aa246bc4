/// The SQL dialect `--to sql` writes: how ``ReviewTableWriter`` spells a
/// string literal that holds a CR or LF.
///
///     ReviewTableWriter(format: .sql(.postgresql))  // E'a\r\nb' for "a\r\nb"
///
/// Choosing costs nothing at run time.
public enum SQLDialect: String, Sendable, CaseIterable {
  /// SQLite 3 through the sqlite3 shell: text with a CR as `CAST(X'…' AS TEXT)`.
  case sqlite
  /// PostgreSQL through psql: text with a CR or LF as `E'…'`.
  case postgresql
}
